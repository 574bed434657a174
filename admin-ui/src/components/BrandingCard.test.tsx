import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent } from '@testing-library/react';
import { AdminContext, Notification, testDataProvider } from 'react-admin';
import { i18nProvider } from '../i18n';
import { BrandingCard } from './BrandingCard';

function setup(canEdit = true) {
  const uploadImage = vi.fn(async () => ({ url: 'http://img/new.png', expires_at: '2030-01-01T00:00:00Z' }));
  const removeImage = vi.fn(async () => undefined);
  const record = {
    id: 'c1',
    updated_at: '2026-11-01T00:00:00.000Z',
    logo: null,
    avatar: { url: 'http://img/avatar.png' },
  };
  render(
    <AdminContext dataProvider={testDataProvider({ uploadImage, removeImage })} i18nProvider={i18nProvider}>
      <BrandingCard resource="clusters" record={record} canEdit={canEdit} />
      <Notification />
    </AdminContext>,
  );
  return { uploadImage, removeImage, record };
}

const pick = (kind: 'logo' | 'avatar', file: File) =>
  fireEvent.change(screen.getByTestId(`branding-${kind}-input`), { target: { files: [file] } });

describe('branding card', { timeout: 20_000 }, () => {
  it('offers upload in read mode, since an upload saves at once', async () => {
    setup();
    for (const b of await screen.findAllByRole('button', { name: /upload/i })) expect(b).toBeEnabled();
    expect(screen.getByTestId('branding-avatar-preview')).toHaveAttribute('src', 'http://img/avatar.png');
  });

  it('shows no controls to a caller who may not edit', async () => {
    setup(false);
    await screen.findByTestId('branding-avatar-preview');
    expect(screen.queryByRole('button', { name: /upload|remove/i })).toBeNull();
  });

  it('rejects a wrong type with an error and no request', async () => {
    const { uploadImage } = setup();
    pick('logo', new File(['GIF89a'], 'a.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Only JPEG, PNG or WebP images are accepted')).toBeInTheDocument();
    expect(uploadImage).not.toHaveBeenCalled();
  });

  it('rejects a file over 5 MB with an error and no request', async () => {
    const { uploadImage } = setup();
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    pick('avatar', big);
    expect(await screen.findByText('The image is larger than 5 MB')).toBeInTheDocument();
    expect(uploadImage).not.toHaveBeenCalled();
  });

  it('uploads at once and shows the new image', async () => {
    const { uploadImage } = setup();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    pick('logo', file);
    await waitFor(() => expect(uploadImage).toHaveBeenCalledWith('clusters', 'c1', 'logo', file));
    await waitFor(() =>
      expect(screen.getByTestId('branding-logo-preview')).toHaveAttribute('src', 'http://img/new.png'),
    );
  });

  it('removes an image after a confirmation, with the record it read', async () => {
    const { removeImage, record } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the avatar?' });
    expect(removeImage).not.toHaveBeenCalled();
    fireEvent.click(dialog.querySelector('button.ra-confirm') ?? screen.getAllByRole('button', { name: 'Remove' })[1]!);
    await waitFor(() => expect(removeImage).toHaveBeenCalledWith('clusters', 'c1', 'avatar', record));
    expect(await screen.findByText('Avatar removed')).toBeInTheDocument();
    expect(screen.queryByTestId('branding-avatar-preview')).toBeNull();
  });
});
