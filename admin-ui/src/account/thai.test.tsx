import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import type { QueryClient } from '@tanstack/react-query';
import { AccountPage } from './AccountPage';
import { ForcedPasswordChange } from './ForcedPasswordChange';
import { LoginPage } from '../pages/LoginPage';
import { endReasonStore } from '../dataProvider/tokens';
import { createPasswordChange } from '../dataProvider/passwordChange';
import * as account from './i18n';
import * as accountThai from './i18n.th';
import type { Messages } from '../lib/messages';
import { AppUserMenu } from '../layout/AppLayout';
import { accountI18n, authFor, owner, renderScreen } from './testSupport';

const leaves = (tree: Messages, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`)));

const sessions = {
  data: [
    {
      id: 's1',
      created_at: '2026-11-20T07:45:00.000Z',
      last_used_at: '2026-11-20T09:15:00.000Z',
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
      current: true,
    },
    {
      id: 's2',
      created_at: '2026-11-18T07:45:00.000Z',
      last_used_at: '2026-11-19T09:15:00.000Z',
      ip: null,
      user_agent: null,
      current: false,
    },
  ],
};

const dataProvider = () => ({
  listMySessions: vi.fn(async () => sessions),
  changeMyPassword: vi.fn(async () => undefined),
  revokeMySession: vi.fn(async () => undefined),
  revokeMyOtherSessions: vi.fn(async () => ({ revoked: 1 })),
});

/** Every query the screen asked for has answered, so every label it draws from them has been asked for. */
const queriesAnswered = (queryClient: QueryClient) =>
  waitFor(() => expect(queryClient.isFetching() + queryClient.isMutating()).toBe(0));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('my account in Thai', { timeout: 30_000 }, () => {
  it('has a Thai message for every English one', () => {
    expect(leaves(accountThai.th).sort()).toEqual(leaves(account.en).sort());
  });

  it('shows the account page, its dialogs and hints in Thai only', async () => {
    const { missing, queryClient } = renderScreen(<AccountPage />, {
      dataProvider: dataProvider(),
      locale: 'th',
      strict: true,
    });
    const rows = await screen.findAllByTestId('session-row');
    expect(screen.getByRole('heading', { name: 'บัญชีของฉัน', level: 1 })).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Chrome บน Linux')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('อุปกรณ์นี้')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('อุปกรณ์ที่ไม่รู้จัก')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^ยืนยันรหัสผ่านใหม่/, { selector: 'input' }), { target: { value: 'x' } });
    expect(screen.getByText('รหัสผ่านใหม่ทั้งสองช่องไม่ตรงกัน')).toBeInTheDocument();
    fireEvent.click(within(rows[1]!).getByRole('button', { name: /เพิกถอน/ }));
    await screen.findByRole('dialog');
    fireEvent.click(await screen.findByRole('button', { name: /ยืนยัน/ }));
    await screen.findByText('ออกจากระบบ อุปกรณ์ที่ไม่รู้จัก แล้ว');
    fireEvent.click(await screen.findByRole('button', { name: 'ออกจากระบบอุปกรณ์อื่นทั้งหมด' }));
    await screen.findByText('ออกจากระบบอุปกรณ์อื่นทั้งหมดหรือไม่?');
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the forced password change in Thai only', async () => {
    const passwordChange = createPasswordChange();
    const { missing, queryClient } = renderScreen(<ForcedPasswordChange passwordChange={passwordChange} />, {
      dataProvider: dataProvider(),
      locale: 'th',
      strict: true,
    });
    expect(await screen.findByRole('heading', { name: 'ตั้งรหัสผ่านใหม่' })).toBeInTheDocument();
    expect(screen.getByText('รหัสผ่านของคุณถูกตั้งโดยผู้ดูแลระบบ กรุณาตั้งรหัสผ่านของคุณเองเพื่อใช้งานต่อ')).toBeInTheDocument();
    // The form has the account it is for: the permissions have arrived and been drawn.
    await waitFor(() => expect(document.querySelector('input[name="username"]')).toHaveValue(owner.user.username));
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it.each([
    ['account-deactivated', 'บัญชีของคุณถูกปิดการใช้งานแล้ว กรุณาติดต่อผู้ดูแลระบบเพื่อเปิดใช้งานอีกครั้ง'],
    ['session-ended', 'อุปกรณ์นี้ถูกออกจากระบบแล้ว'],
  ] as const)('says on the login page why the session ended (%s) in Thai', async (reason, text) => {
    endReasonStore.set(reason);
    const { provider } = accountI18n('th', true);
    render(
      <AdminContext
        i18nProvider={provider}
        authProvider={{
          login: async () => undefined,
          logout: async () => undefined,
          checkAuth: async () => Promise.reject(new Error('signed out')),
          checkError: async () => undefined,
        }}
      >
        <LoginPage />
      </AdminContext>,
    );
    expect(await screen.findByTestId('session-end-reason')).toHaveTextContent(text);
  });

  it('names the way to My account in the user menu in Thai', async () => {
    const { provider, missing } = accountI18n('th', true);
    render(
      <AdminContext i18nProvider={provider} authProvider={authFor(owner)}>
        <AppUserMenu />
      </AdminContext>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'โปรไฟล์' }));
    expect(await screen.findByRole('menuitem', { name: 'บัญชีของฉัน' })).toBeInTheDocument();
    // Signing out, in react-admin's Thai, once the session is known.
    await waitFor(() => expect(screen.getAllByRole('menuitem')).toHaveLength(2));
    expect([...missing]).toEqual([]);
  });
});
