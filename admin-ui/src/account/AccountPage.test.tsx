import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { AccountPage } from './AccountPage';
import { renderScreen } from './testSupport';

const thisDevice = {
  id: 's1',
  created_at: '2026-11-20T07:45:00.000Z',
  last_used_at: '2026-11-20T09:15:00.000Z',
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  current: true,
};
const phone = {
  id: 's2',
  created_at: '2026-11-18T01:00:00.000Z',
  last_used_at: '2026-11-19T02:00:00.000Z',
  ip: null,
  user_agent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  current: false,
};

const provider = (overrides: Record<string, unknown> = {}) => ({
  listMySessions: vi.fn(async () => ({ data: [thisDevice, phone] })),
  changeMyPassword: vi.fn(async () => undefined),
  revokeMySession: vi.fn(async () => undefined),
  revokeMyOtherSessions: vi.fn(async () => ({ revoked: 1 })),
  // The second-factors card beside them: none set up.
  getMySecondFactors: vi.fn(async () => ({
    required: false,
    required_reason: null,
    totp: null,
    passkeys: [],
    recovery_codes: null,
  })),
  ...overrides,
});

/** The account (for the username rule) comes with the permissions. */
const accountLoaded = () =>
  waitFor(() => expect(document.querySelector('input[name="username"]')).toHaveValue('somchai'));

const field = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

function fillPassword(current: string, next: string, confirm = next) {
  fireEvent.change(field(/^Current password/), { target: { value: current } });
  fireEvent.change(field(/^New password/), { target: { value: next } });
  fireEvent.change(field(/^Confirm the new password/), { target: { value: confirm } });
}

// The first render loads the whole form and its checklist: on a busy machine that alone can take seconds.
describe('My account: password', { timeout: 20_000 }, () => {
  it('checks the rules while typing and only sends a password that follows them', async () => {
    const dataProvider = provider();
    renderScreen(<AccountPage />, { dataProvider });
    const submit = await screen.findByRole('button', { name: 'Change password' });
    await accountLoaded();
    fillPassword('Old-password-1', 'short');
    expect(submit).toBeDisabled();
    fillPassword('Old-password-1', 'somchai-is-me-2026');
    expect(submit).toBeDisabled();
    fillPassword('Old-password-1', 'Phuket-Lagoon-Morning-7', 'Phuket-Lagoon-Morning-8');
    expect(screen.getByText('The two new passwords differ')).toBeInTheDocument();
    expect(submit).toBeDisabled();
    expect(screen.getByText('is not a common password')).toBeInTheDocument();

    fillPassword('Old-password-1', 'Phuket-Lagoon-Morning-7');
    expect(submit).toBeEnabled();
    fireEvent.click(submit);
    expect(await screen.findByTestId('password-changed')).toHaveTextContent(
      'Password changed. Your other devices have been signed out.',
    );
    expect(dataProvider.changeMyPassword).toHaveBeenCalledWith({
      current_password: 'Old-password-1',
      new_password: 'Phuket-Lagoon-Morning-7',
    });
    // The other sessions ended on the server: the list is read again.
    await waitFor(() => expect(dataProvider.listMySessions).toHaveBeenCalledTimes(2));
    expect(field(/^New password/)).toHaveValue('');
  });

  it('shows a wrong current password under the current password', async () => {
    const dataProvider = provider({
      changeMyPassword: vi.fn(async () => {
        throw new HttpError('The current password is wrong.', 400, { detail: 'The current password is wrong.' });
      }),
    });
    renderScreen(<AccountPage />, { dataProvider });
    await accountLoaded();
    fillPassword('not-it', 'Phuket-Lagoon-Morning-7');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(field(/^Current password/)).toHaveAccessibleDescription('The current password is wrong.'),
    );
    expect(field(/^New password/)).not.toHaveAccessibleDescription('The current password is wrong.');
    expect(screen.queryByTestId('password-changed')).not.toBeInTheDocument();
  });

  it('shows a broken rule the server found under the new password', async () => {
    const detail = 'The password is on the list of common passwords; choose a less predictable one.';
    const dataProvider = provider({
      changeMyPassword: vi.fn(async () => {
        throw new HttpError(detail, 400, { detail });
      }),
    });
    renderScreen(<AccountPage />, { dataProvider });
    await accountLoaded();
    fillPassword('Old-password-1', 'password1234');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(field(/^New password/)).toHaveAccessibleDescription(detail));
  });
});

describe('My account: sessions', () => {
  it('lists the devices in words, marks this one, and revokes another after confirming', async () => {
    const dataProvider = provider();
    renderScreen(<AccountPage />, { dataProvider });
    const rows = await screen.findAllByTestId('session-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Chrome on Linux')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('Safari on iOS')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Unknown')).toBeInTheDocument();
    // The raw user agent is the tooltip of the device's name.
    expect(within(rows[1]!).getByLabelText(phone.user_agent)).toHaveTextContent('Safari on iOS');

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Revoke the session of Safari on iOS' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Sign out Safari on iOS?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(dataProvider.revokeMySession).toHaveBeenCalledWith('s2'));
    expect(await screen.findByText('Safari on iOS signed out')).toBeInTheDocument();
    await waitFor(() => expect(dataProvider.listMySessions).toHaveBeenCalledTimes(2));
  });

  it('signs out all other devices after confirming and says how many', async () => {
    const dataProvider = provider();
    renderScreen(<AccountPage />, { dataProvider });
    await screen.findAllByTestId('session-row');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out all other devices' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Sign out all other devices?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('1 other device signed out')).toBeInTheDocument();
    expect(dataProvider.revokeMyOtherSessions).toHaveBeenCalledTimes(1);
  });

  it('offers nothing to sign out when this is the only device', async () => {
    renderScreen(<AccountPage />, {
      dataProvider: provider({ listMySessions: vi.fn(async () => ({ data: [thisDevice] })) }),
    });
    await screen.findAllByTestId('session-row');
    expect(screen.getByRole('button', { name: 'Sign out all other devices' })).toBeDisabled();
  });

  it('shows the loading, empty and error states', async () => {
    let answer!: (v: unknown) => void;
    const { unmount } = renderScreen(<AccountPage />, {
      dataProvider: provider({ listMySessions: vi.fn(() => new Promise((r) => (answer = r))) }),
    });
    const card = await screen.findByTestId('sessions-card');
    expect(within(card).getAllByTestId('card-table-loading')).not.toHaveLength(0);
    answer({ data: [] });
    expect(await screen.findByTestId('sessions-empty')).toHaveTextContent('No device is signed in.');
    unmount();

    const failing = vi.fn(async () => {
      throw new HttpError('boom', 500, {});
    });
    renderScreen(<AccountPage />, { dataProvider: provider({ listMySessions: failing }) });
    expect(await screen.findByTestId('error-state')).toHaveTextContent('The sessions could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(failing).toHaveBeenCalledTimes(2));
  });
});
