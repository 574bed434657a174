import { useState } from 'react';
import { Form, PasswordInput, TextInput, required, useLogin, useTranslate } from 'react-admin';
import { Button, CardContent, CircularProgress } from '@mui/material';
import { signInProblem } from '../lib/problems';
import { useNotice } from '../lib/notice';
import { isSecondFactorRequired } from '../authProvider';
import type { SecondFactorChallenge } from '../dataProvider/api';
import { PasskeySignInButton, SecondFactorStep } from '../second-factor/SecondFactorStep';

/**
 * react-admin's sign-in form, with a refusal said in the console's words (throttling in whole minutes). For an account
 * with a second factor the password step is followed by the second step, in the same card.
 */
export const SignInForm = () => {
  const translate = useTranslate();
  const login = useLogin();
  const notice = useNotice();
  const [loading, setLoading] = useState(false);
  const [second, setSecond] = useState<{ challenge: SecondFactorChallenge; username: string } | null>(null);

  const submit = async (values: Record<string, unknown>) => {
    setLoading(true);
    try {
      await login(values, '/');
    } catch (error) {
      if (isSecondFactorRequired(error)) {
        setSecond({ challenge: error.challenge, username: typeof values.username === 'string' ? values.username : '' });
        return;
      }
      const { message, args } = signInProblem(error);
      notice(message, { type: 'error', args });
    } finally {
      setLoading(false);
    }
  };

  if (second)
    return (
      <SecondFactorStep
        challenge={second.challenge}
        of={{ username: second.username }}
        onRestart={() => setSecond(null)}
      />
    );

  return (
    <>
      <Form onSubmit={submit} mode="onChange" noValidate>
        <CardContent>
          <TextInput
            autoFocus
            source="username"
            label="ra.auth.username"
            autoComplete="username"
            validate={required()}
          />
          <PasswordInput
            source="password"
            label="ra.auth.password"
            autoComplete="current-password"
            validate={required()}
          />
          <Button variant="contained" type="submit" color="primary" disabled={loading} fullWidth sx={{ mt: 2 }}>
            {loading ? <CircularProgress size={19} thickness={3} /> : translate('ra.auth.sign_in')}
          </Button>
        </CardContent>
      </Form>
      <PasskeySignInButton />
    </>
  );
};
