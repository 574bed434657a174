import { Title, usePermissions, useTranslate } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import type { PlatformPermissions } from '../types';
import { PasswordChangeForm } from './PasswordChangeForm';
import { SESSIONS_KEY, SessionsCard } from './SessionsCard';
import { SecondFactorsCard } from '../second-factor/SecondFactorsCard';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { ACCOUNT_SCREEN_MESSAGES } from './messages';

/** The signed-in user's own account: their password, their second factors and the devices signed in with it. */
const AccountScreen = () => {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const { permissions } = usePermissions<PlatformPermissions>();
  const user = permissions?.user ?? null;

  return (
    <Box sx={{ py: 2 }} data-testid="account-page">
      <Title title="account.title" />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('account.title')}
      </Typography>
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Typography variant="h6" component="h2">
              {translate('account.password.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('account.password.intro')}
            </Typography>
            <PasswordChangeForm
              owner={user}
              // The server has just ended the other sessions: the list shows it.
              onChanged={() => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY })}
            />
          </CardContent>
        </Card>
        <SecondFactorsCard />
        <SessionsCard />
      </Stack>
    </Box>
  );
};

/** The signed-in user's own account, with the words only it shows. */
export const AccountPage = () => (
  <ScreenMessages modules={ACCOUNT_SCREEN_MESSAGES}>
    <AccountScreen />
  </ScreenMessages>
);
