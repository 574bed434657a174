import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithAdmin } from '../test/renderWithAdmin';
import { createReauth } from '../dataProvider/reauth';
import { leaveConsole } from '../lib/browserNavigation';
import { SessionExpiredForm } from './SessionExpiredForm';

vi.mock('../lib/browserNavigation', () => ({ leaveConsole: vi.fn() }));

describe('the sign-in-again dialog', () => {
  beforeEach(() => {
    vi.mocked(leaveConsole).mockClear();
    window.location.hash = '#/clusters/c1/edit';
  });

  it('offers the organisation’s identity providers beside the password, and returns to this page after', async () => {
    renderWithAdmin(<SessionExpiredForm reauth={createReauth()} asking />, {
      listSsoProviders: async () => [{ id: 'entra', display_name: 'Microsoft Entra ID' }],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Microsoft Entra ID' }));
    expect(leaveConsole).toHaveBeenCalledWith('/api/auth/sso/entra/start?return_to=%2Fclusters%2Fc1%2Fedit');
    expect(screen.getByText(/changes not yet saved are lost/)).toBeInTheDocument();
  });

  it('shows only the password form when no provider is configured or the list fails', async () => {
    renderWithAdmin(<SessionExpiredForm reauth={createReauth()} asking />, {
      listSsoProviders: async () => {
        throw new Error('offline');
      },
    });
    expect(await screen.findByLabelText(/Password/)).toBeInTheDocument();
    expect(screen.queryByTestId('session-expired-sso')).toBeNull();
  });
});
