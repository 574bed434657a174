import { forwardRef, useCallback, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import {
  AppBar,
  Layout,
  Logout,
  UserMenu,
  useGetIdentity,
  usePermissions,
  useTranslate,
  useUserMenu,
  type AppBarProps,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { ListItemIcon, ListItemText, MenuItem, ThemeProvider, type Theme } from '@mui/material';
import AccountIcon from '@mui/icons-material/ManageAccounts';
import { AppMenu } from './AppMenu';
import { AppBarTitle, AppBarToolbar, useSidebarFitsWidth } from './AppBarParts';
import { SessionExpiredDialog } from '../components/SessionExpiredDialog';
import { StepUpDialog } from '../components/StepUpDialog';
import { RESOURCES } from '../resources/registry';
import { passwordChange as defaultPasswordChange, type PasswordChange } from '../dataProvider/passwordChange';
import { ForcedPasswordChangePage } from '../account';
import { enrolment as defaultEnrolment, type Enrolment } from '../dataProvider/enrolment';
import { ForcedEnrolmentPage } from '../second-factor';
import { PageLoading } from './PageLoading';

/** Once the first screen is up and the browser is idle, fetch the list screens, so the first visit of one is quick. */
function usePrefetchLists() {
  useEffect(() => {
    const prefetch = () => RESOURCES.forEach((r) => r.list.preload?.());
    const idle = globalThis.requestIdleCallback;
    if (idle) {
      const handle = idle(prefetch, { timeout: 3000 });
      return () => globalThis.cancelIdleCallback?.(handle);
    }
    const timer = setTimeout(prefetch, 1500);
    return () => clearTimeout(timer);
  }, []);
}

/** The user menu's way to the signed-in user's own account page. */
const MyAccountMenuItem = forwardRef<HTMLAnchorElement>(function MyAccountMenuItem(props, ref) {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem {...props} ref={ref} component={Link} to="/account" onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <AccountIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('account.menu')}</ListItemText>
    </MenuItem>
  );
});

/**
 * The user menu of the app bar: the user's own account, then signing out. Its button shows the user's name, so the
 * name is its accessible name too (a screen-reader user hears what a sighted user reads).
 */
export const AppUserMenu = () => {
  const { identity } = useGetIdentity();
  return (
    <UserMenu label={identity?.fullName || 'ra.auth.user_menu'}>
      <MyAccountMenuItem />
      <Logout />
    </UserMenu>
  );
};

/** The app bar in the primary colour, like the primary buttons and the first chart series: one palette. */
const PrimaryAppBar = (props: AppBarProps) => (
  <AppBar {...props} color="primary" userMenu={<AppUserMenu />} toolbar={<AppBarToolbar />}>
    <AppBarTitle />
  </AppBar>
);

/**
 * Every signed-in screen. While the account must change its password, only that screen is shown, whatever the
 * route: the server refuses everything else meanwhile. Then, while it must set up a second factor, only the
 * enrolment screen. The first permissions are awaited so no screen starts behind them.
 */
export const AppLayout = ({
  children,
  passwordChange = defaultPasswordChange,
  enrolment = defaultEnrolment,
}: {
  children: ReactNode;
  passwordChange?: PasswordChange;
  enrolment?: Enrolment;
}) => {
  const { isPending } = usePermissions();
  const mustChangePassword = useSyncExternalStore(passwordChange.subscribe, passwordChange.isRequired);
  const mustEnrol = useSyncExternalStore(enrolment.subscribe, enrolment.isRequired);
  if (isPending && !mustChangePassword && !mustEnrol) return <PageLoading />;
  if (mustChangePassword || mustEnrol) {
    return (
      <>
        {mustChangePassword ? (
          <ForcedPasswordChangePage passwordChange={passwordChange} />
        ) : (
          <ForcedEnrolmentPage enrolment={enrolment} />
        )}
        <SessionExpiredDialog />
      </>
    );
  }
  return <ConsoleLayout>{children}</ConsoleLayout>;
};

/**
 * Every progress indicator of the console is named ("Loading", in the console's language) unless it names itself:
 * an unnamed spinner is only a moving shape to a screen reader.
 */
const NamedProgress = ({ children }: { children: ReactNode }) => {
  const translate = useTranslate();
  const label = translate('ra.page.loading');
  // MUI's nested theme: the console's theme with two more default props.
  const withNames = useCallback(
    (outer: Theme): Theme => ({
      ...outer,
      components: {
        ...outer.components,
        MuiCircularProgress: {
          ...outer.components?.MuiCircularProgress,
          defaultProps: { ...outer.components?.MuiCircularProgress?.defaultProps, 'aria-label': label },
        },
        MuiLinearProgress: {
          ...outer.components?.MuiLinearProgress,
          defaultProps: { ...outer.components?.MuiLinearProgress?.defaultProps, 'aria-label': label },
        },
      },
    }),
    [label],
  );
  return <ThemeProvider theme={withNames}>{children}</ThemeProvider>;
};

const ConsoleLayout = ({ children }: { children: ReactNode }) => {
  usePrefetchLists();
  useSidebarFitsWidth();
  // The layout (react-admin makes it `fit-content`) and its content column may be narrower than the widest table:
  // a wide table scrolls inside its card, with its row actions kept in view, and the page never scrolls sideways.
  return (
    <NamedProgress>
      <Layout menu={AppMenu} appBar={PrimaryAppBar} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
        {children}
        <SessionExpiredDialog />
        <StepUpDialog />
      </Layout>
    </NamedProgress>
  );
};
