import { useLogout, usePermissions, useTranslate } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Typography } from '@mui/material';
import { RequiredStepScreen } from '../components/RequiredStepScreen';
import type { PlatformPermissions } from '../types';
import { passwordChange as defaultPasswordChange, type PasswordChange } from '../dataProvider/passwordChange';
import { PasswordChangeForm } from './PasswordChangeForm';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { ACCOUNT_SCREEN_MESSAGES } from './messages';

/**
 * The only screen of an account whose password was set by an administrator (a new account, a reset): the server
 * answers nothing else until the password is changed. Once changed, the permissions are read again and the
 * dashboard opens.
 */
const ForcedPasswordScreen = ({ passwordChange = defaultPasswordChange }: { passwordChange?: PasswordChange }) => {
  const translate = useTranslate();
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { permissions } = usePermissions<PlatformPermissions>();

  const changed = async () => {
    // The router finishes the navigation on its own; nothing here waits for it.
    void navigate('/');
    passwordChange.changed();
    // Every answer derived from the permissions (menus, access checks) was read while the change was required.
    await queryClient.invalidateQueries({ queryKey: ['auth'] });
  };

  return (
    <RequiredStepScreen
      testId="forced-password-change"
      maxWidth={480}
      title={translate('account.forced.title')}
      signOutLabel={translate('account.forced.sign_out')}
      onSignOut={() => void logout()}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('account.forced.message')}
      </Typography>
      <PasswordChangeForm owner={permissions?.user ?? null} submitLabel="account.forced.submit" onChanged={changed} />
    </RequiredStepScreen>
  );
};

export const ForcedPasswordChange = (props: { passwordChange?: PasswordChange }) => (
  <ScreenMessages modules={ACCOUNT_SCREEN_MESSAGES}>
    <ForcedPasswordScreen {...props} />
  </ScreenMessages>
);
