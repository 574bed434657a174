import { useLogout, usePermissions, useTranslate } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
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
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 480 }} data-testid="forced-password-change">
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('account.forced.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('account.forced.message')}
          </Typography>
          <PasswordChangeForm
            owner={permissions?.user ?? null}
            submitLabel="account.forced.submit"
            onChanged={changed}
          />
          <Button sx={{ mt: 2 }} onClick={() => void logout()}>
            {translate('account.forced.sign_out')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
};

export const ForcedPasswordChange = (props: { passwordChange?: PasswordChange }) => (
  <ScreenMessages modules={ACCOUNT_SCREEN_MESSAGES}>
    <ForcedPasswordScreen {...props} />
  </ScreenMessages>
);
