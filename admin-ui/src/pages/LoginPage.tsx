import { useState } from 'react';
import { Form, Login, PasswordInput, TextInput, required, useLogin, useNotify, useTranslate } from 'react-admin';
import { Alert, Button, CardContent, CircularProgress, Typography } from '@mui/material';
import { signInProblem } from '../lib/problems';
import { endReasonStore } from '../dataProvider/tokens';
import { PROBLEM, type SessionEndReason } from '../dataProvider/errors';

/** Why the last session of this tab ended, when the server ended it (an expiry says nothing here). */
const END_MESSAGES: Record<SessionEndReason, string> = {
  [PROBLEM.accountDeactivated]: 'account.ended.account_deactivated',
  [PROBLEM.sessionEnded]: 'account.ended.session_ended',
};

const SessionEndNotice = () => {
  const translate = useTranslate();
  // Read once: it stays until the next sign-in, so a reload of the login page still says it.
  const [reason] = useState(() => endReasonStore.get());
  if (!reason) return null;
  return (
    <CardContent sx={{ pb: 0, width: 300 }}>
      <Alert severity="warning" data-testid="session-end-reason">
        {translate(END_MESSAGES[reason])}
      </Alert>
    </CardContent>
  );
};

/** react-admin's sign-in form, with a refusal said in the console's words (throttling in whole minutes). */
const SignInForm = () => {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const [loading, setLoading] = useState(false);

  const submit = async (values: Record<string, unknown>) => {
    setLoading(true);
    try {
      await login(values, '/');
    } catch (error) {
      const { message, args } = signInProblem(error);
      notify(message, { type: 'error', messageArgs: { _: message, ...args } });
    } finally {
      setLoading(false);
    }
  };

  return (
    <Form onSubmit={submit} mode="onChange" noValidate>
      <CardContent sx={{ width: 300 }}>
        <TextInput autoFocus source="username" label="ra.auth.username" autoComplete="username" validate={required()} />
        <PasswordInput source="password" label="ra.auth.password" autoComplete="current-password" validate={required()} />
        <Button variant="contained" type="submit" color="primary" disabled={loading} fullWidth sx={{ mt: 2 }}>
          {loading ? <CircularProgress size={19} thickness={3} /> : translate('ra.auth.sign_in')}
        </Button>
      </CardContent>
    </Form>
  );
};

export const LoginPage = () => {
  const translate = useTranslate();
  return (
    <Login>
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="h6" align="center" data-testid="login-title">
          {translate('app.title')}
        </Typography>
        <Typography variant="body2" align="center" color="text.secondary">
          {translate('app.login.subtitle')}
        </Typography>
      </CardContent>
      <SessionEndNotice />
      <SignInForm />
    </Login>
  );
};
