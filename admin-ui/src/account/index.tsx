import { lazyPage } from '../components/lazyPage';

/** The signed-in user's own account (route `/account`), loaded on first use. */
export const AccountPage = lazyPage(async () => (await import('./AccountPage')).AccountPage);

/** The only screen while the account must choose a new password, loaded when that happens. */
export const ForcedPasswordChangePage = lazyPage(
  async () => (await import('./ForcedPasswordChange')).ForcedPasswordChange,
);
