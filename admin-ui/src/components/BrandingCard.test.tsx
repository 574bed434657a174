import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent } from '@testing-library/react';
import { AdminContext, Notification, testDataProvider } from 'react-admin';
import { i18nProvider } from '../i18n';
import { BrandingCard } from './BrandingCard';

function setup(enabled: boolean) {
  const uploadImage = vi.fn(async () => ({ url: 'http://img/new.png', expires_at: '2030-01-01T00:00:00Z' }));
  render(
    <AdminContext dataProvider={testDataProvider({ uploadImage })} i18nProvider={i18nProvider}>
      <BrandingCard
        resource="clusters"
        recordId="c1"
        logoUrl={null}
        avatarUrl="http://img/avatar.png"
        enabled={enabled}
      />
      <Notification />
    </AdminContext>,
  );
  return { uploadImage };
}

const pick = (kind: 'logo' | 'avatar', file: File) =>
  fireEvent.change(screen.getByTestId(`branding-${kind}-input`), { target: { files: [file] } });

describe('branding card', { timeout: 20_000 }, () => {
  it('disables the upload controls outside edit mode', async () => {
    setup(false);
    for (const b of await screen.findAllByRole('button', { name: /upload/i })) expect(b).toBeDisabled();
    expect(screen.getByTestId('branding-avatar-preview')).toHaveAttribute('src', 'http://img/avatar.png');
  });

  it('rejects a wrong type with an error and no request', async () => {
    const { uploadImage } = setup(true);
    pick('logo', new File(['GIF89a'], 'a.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Only JPEG, PNG or WebP images are accepted')).toBeInTheDocument();
    expect(uploadImage).not.toHaveBeenCalled();
  });

  it('rejects a file over 5 MB with an error and no request', async () => {
    const { uploadImage } = setup(true);
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    pick('avatar', big);
    expect(await screen.findByText('The image is larger than 5 MB')).toBeInTheDocument();
    expect(uploadImage).not.toHaveBeenCalled();
  });

  it('uploads at once and shows the new image', async () => {
    const { uploadImage } = setup(true);
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    pick('logo', file);
    await waitFor(() => expect(uploadImage).toHaveBeenCalledWith('clusters', 'c1', 'logo', file));
    await waitFor(() =>
      expect(screen.getByTestId('branding-logo-preview')).toHaveAttribute('src', 'http://img/new.png'),
    );
  });
});
