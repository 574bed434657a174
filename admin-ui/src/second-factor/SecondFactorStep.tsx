import { useState } from 'react';
import { useLogin, useTranslate } from 'react-admin';
import { Button, CardContent, Typography } from '@mui/material';
import type { SecondFactorChallenge } from '../dataProvider/api';
import type { SecondStepOf } from '../authProvider';
import { SecondStepForm } from './SecondStepForm';
import { factorProblem, type FactorProblem } from './problems';

/**
 * The sign-in's second step, after a right password: a code from the authenticator app, a recovery code, or a passkey
 * (whichever the account has). A wrong code is said in place; an expired sign-in (five minutes) can only start again.
 */
export const SecondFactorStep = (props: {
  challenge: SecondFactorChallenge;
  /** What the first step was: a password (its username) or a single sign-on. */
  of: SecondStepOf;
  onRestart: () => void;
}) => {
  const translate = useTranslate();
  const login = useLogin();
  return (
    <CardContent data-testid="second-factor-step">
      <Typography variant="subtitle1" component="h2" gutterBottom>
        {translate('second_factor.sign_in.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {props.of.sso
          ? translate('second_factor.sign_in.intro_sso')
          : translate('second_factor.sign_in.intro', { username: props.of.username ?? '' })}
      </Typography>
      <SecondStepForm
        idPrefix="second-factor"
        challenge={props.challenge}
        of={props.of}
        signIn={(params) => login(params, '/')}
        onRestart={props.onRestart}
      />
    </CardContent>
  );
};

/**
 * Signing in with a passkey alone, without the username or password: the browser offers the passkeys it holds for
 * this site. Shown only where the browser can use passkeys.
 */
export const PasskeySignInButton = () => {
  const translate = useTranslate();
  const login = useLogin();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FactorProblem | null>(null);
  if (typeof window === 'undefined' || !('PublicKeyCredential' in window)) return null;

  const signIn = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await login({ passkey: true }, '/');
    } catch (error) {
      setProblem(factorProblem(error, true));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CardContent sx={{ pt: 0 }}>
      <Button variant="outlined" fullWidth disabled={busy} onClick={() => void signIn()} data-testid="passkey-sign-in">
        {translate('second_factor.sign_in.with_passkey')}
      </Button>
      {problem ? (
        <Typography variant="body2" color="error" role="alert" sx={{ mt: 1 }} data-testid="passkey-sign-in-error">
          {translate(problem.message, problem.args)}
        </Typography>
      ) : null}
    </CardContent>
  );
};
