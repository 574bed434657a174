import { useEffect, useState, type FormEvent } from 'react';
import { useAuthProvider, useLogout, useTranslate } from 'react-admin';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import type { Reauth } from '../dataProvider/reauth';
import { signInProblem } from '../lib/problems';
import { ssoStartUrl } from '../dataProvider/ssoStart';
import { leaveConsole } from '../lib/browserNavigation';
import { ssoLoginScreenMessages } from '../sso/loginMessages';
import { useSsoProviders } from '../sso/useSsoProviders';
import { useScreenTranslate } from './history/ScreenMessages';
import { isSecondFactorRequired } from '../authProvider';
import type { SecondFactorChallenge } from '../dataProvider/api';
import { ReauthSecondStep } from '../second-factor/ReauthSecondStep';

const SSO_MESSAGES = [ssoLoginScreenMessages];

/**
 * The organisation's identity providers, for an account that signs in there (an SSO-only one has no password to type
 * here). Going to a provider leaves the console, so the page is opened again afterwards, without what was unsaved.
 */
const SignInAgainWithProvider = ({ asking }: { asking: boolean }) => {
  const translate = useScreenTranslate(SSO_MESSAGES);
  const providers = useSsoProviders({ retry: false, staleTime: 60_000, enabled: asking });
  if (!providers.data?.length) return null;
  const here = window.location.hash.replace(/^#/, '') || '/';
  return (
    <Stack spacing={1} data-testid="session-expired-sso">
      <DialogContentText variant="body2">{translate('sso.login.reauth_hint')}</DialogContentText>
      {providers.data.map((p) => (
        <Button key={p.id} variant="outlined" onClick={() => leaveConsole(ssoStartUrl(p.id, here))}>
          {translate('sso.login.sign_in_with', { name: p.display_name })}
        </Button>
      ))}
    </Stack>
  );
};

/**
 * The sign-in-again dialog (mounted by SessionExpiredDialog while a session is lost). A refused password is said in
 * the dialog; Sign out gives up, and the waiting calls then fail instead of being reported as done.
 */
export const SessionExpiredForm = ({ reauth, asking }: { reauth: Reauth; asking: boolean }) => {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const logout = useLogout();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);

  useEffect(() => {
    if (asking) {
      setUsername(reauth.lastUser());
      setPassword('');
      setError(null);
      setChallenge(null);
    }
  }, [asking, reauth]);

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!authProvider) return;
    setBusy(true);
    setError(null);
    try {
      await authProvider.login({ username, password });
      setPassword('');
      reauth.signedIn();
    } catch (err) {
      // The password was right; the account's second factor comes next, in this dialog.
      if (isSecondFactorRequired(err)) {
        setPassword('');
        setChallenge(err.challenge);
        return;
      }
      const { message, args } = signInProblem(err);
      setError(translate(message, { _: message, ...args }));
    } finally {
      setBusy(false);
    }
  };

  const signOut = () => {
    reauth.signedOut();
    void logout();
  };

  // The second step has a form of its own: it takes the password form's place rather than nesting in it.
  if (challenge) {
    return (
      <Dialog open={asking} aria-labelledby="session-expired-title" data-testid="session-expired">
        <DialogTitle id="session-expired-title">{translate('app.session.title')}</DialogTitle>
        <DialogContent>
          <ReauthSecondStep
            challenge={challenge}
            username={username}
            onSignedIn={() => reauth.signedIn()}
            onRestart={() => setChallenge(null)}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={signOut}>{translate('ra.auth.logout')}</Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog
      open={asking}
      aria-labelledby="session-expired-title"
      aria-describedby="session-expired-text"
      data-testid="session-expired"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id="session-expired-title">{translate('app.session.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="session-expired-text" sx={{ mb: 2 }}>
            {translate('app.session.message')}
          </DialogContentText>
          <Stack spacing={2}>
            {error ? (
              <Alert severity="error" data-testid="session-expired-error">
                {error}
              </Alert>
            ) : null}
            <TextField
              label={translate('ra.auth.username')}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoComplete="username"
              required
              fullWidth
              size="small"
            />
            <TextField
              label={translate('ra.auth.password')}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
              autoFocus
              required
              fullWidth
              size="small"
            />
            <SignInAgainWithProvider asking={asking} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={signOut} disabled={busy}>
            {translate('ra.auth.logout')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !username || !password}
            startIcon={busy ? <CircularProgress size={16} /> : undefined}
          >
            {translate('app.session.sign_in')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
