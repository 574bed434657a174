import { useEffect, useState } from 'react';
import { Login, useLogin, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { Alert, Button, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { SignInForm } from './SignInForm';
import { secondFactorSignInMessages } from '../second-factor/signInMessages';
import { statusOf } from '../lib/problems';
import { endReasonStore } from '../dataProvider/tokens';
import { PROBLEM, type SessionEndReason } from '../dataProvider/errors';
import { isSecondFactorRequired, sameSitePath, type SsoSignInParams } from '../authProvider';
import type { SecondFactorChallenge } from '../dataProvider/api';
import { SecondFactorStep } from '../second-factor/SecondFactorStep';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { leaveConsole } from '../lib/browserNavigation';
import { ssoStartUrl } from '../dataProvider/ssoStart';
import { isSsoError, ssoLoginScreenMessages } from '../sso/loginMessages';
import { useSsoProviders } from '../sso/useSsoProviders';

const LOGIN_MESSAGES = [ssoLoginScreenMessages, secondFactorSignInMessages];

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
    <CardContent sx={{ pb: 0 }}>
      <Alert severity="warning" data-testid="session-end-reason">
        {translate(END_MESSAGES[reason])}
      </Alert>
    </CardContent>
  );
};

/** The query of the login page's (hash) address: where the provider's callback puts `sso_code` or `sso_error`. */
const useLoginQuery = () => new URLSearchParams(useLocation().search);

/** The console path the user was on when react-admin sent them here, to open again after signing in. */
const useWantedPath = (): string | null => {
  const state: unknown = useLocation().state;
  const { nextPathname, nextSearch } = (typeof state === 'object' && state !== null ? state : {}) as {
    nextPathname?: unknown;
    nextSearch?: unknown;
  };
  if (typeof nextPathname !== 'string' || nextPathname === '/login') return null;
  return sameSitePath(nextPathname + (typeof nextSearch === 'string' ? nextSearch : ''));
};

/** Why the provider's callback sent the browser back without a session, in words. */
const SsoErrorNotice = () => {
  const translate = useTranslate();
  const reason = useLoginQuery().get('sso_error');
  if (!reason) return null;
  return (
    <CardContent sx={{ pb: 0 }}>
      <Alert severity="error" data-testid="sso-error" data-reason={reason}>
        {translate(`sso.login.errors.${isSsoError(reason) ? reason : 'unknown'}`)}
      </Alert>
    </CardContent>
  );
};

// A code works once: the page may mount twice (React's strict mode, a remount), but it is sent only once.
const exchangedCodes = new Set<string>();

/** A single sign-on that the policy asks for this product's second factor too: its challenge, and where to go next. */
interface SsoSecondStep {
  challenge: SecondFactorChallenge;
  returnTo: string | null;
}

/**
 * The session the provider's callback opened, taken over with its one-time code; react-admin then opens the console,
 * or the second step follows (`onSecondStep`) when the policy asks single sign-ons for it.
 */
const SsoCodeExchange = ({ onSecondStep }: { onSecondStep: (step: SsoSecondStep) => void }) => {
  const translate = useTranslate();
  const login = useLogin();
  const query = useLoginQuery();
  const code = query.get('sso_code');
  const returnTo = query.get('return_to');
  const [failure, setFailure] = useState('');

  useEffect(() => {
    if (!code || exchangedCodes.has(code)) return;
    exchangedCodes.add(code);
    const params: SsoSignInParams = { sso_code: code, return_to: returnTo };
    login(params).catch((error: unknown) => {
      if (isSecondFactorRequired(error)) {
        onSecondStep({ challenge: error.challenge, returnTo });
        return;
      }
      const reason = error instanceof Error && error.message ? error.message : translate('ra.notification.http_error');
      setFailure(
        statusOf(error) === 401
          ? translate('sso.login.exchange_expired')
          : translate('sso.login.exchange_failed', { reason }),
      );
    });
  }, [code, returnTo, login, translate, onSecondStep]);

  if (!code) return null;
  return (
    <CardContent sx={{ pb: 0 }}>
      {failure ? (
        <Alert severity="error" data-testid="sso-exchange-error">
          {failure}
        </Alert>
      ) : (
        <Stack direction="row" spacing={1} alignItems="center" role="status" data-testid="sso-exchanging">
          <CircularProgress size={19} thickness={3} />
          <Typography variant="body2">{translate('sso.login.exchanging')}</Typography>
        </Stack>
      )}
    </CardContent>
  );
};

/**
 * One "Sign in with" button per configured provider. The button leaves the console for the provider's pages; nothing
 * shows while the list loads, when it is empty, or when it fails to load (the password form still works).
 */
const SsoProviderButtons = () => {
  const translate = useTranslate();
  const wanted = useWantedPath();
  const providers = useSsoProviders({ retry: false, staleTime: 60_000 });
  const list = providers.data ?? [];
  if (list.length === 0) return null;
  return (
    <CardContent sx={{ pt: 0 }}>
      <Typography variant="caption" color="text.secondary" component="p" align="center" sx={{ mb: 1 }}>
        {translate('sso.login.or')}
      </Typography>
      <Stack spacing={1} role="group" aria-label={translate('sso.login.providers')}>
        {list.map((p) => (
          <Button
            key={p.id}
            variant="outlined"
            fullWidth
            data-testid="sso-provider"
            onClick={() => leaveConsole(ssoStartUrl(p.id, wanted))}
          >
            {translate('sso.login.sign_in_with', { name: p.display_name })}
          </Button>
        ))}
      </Stack>
    </CardContent>
  );
};

export const LoginPage = () => (
  <ScreenMessages modules={LOGIN_MESSAGES}>
    <LoginCard />
  </ScreenMessages>
);

/**
 * The card has one width, and every part of it (title, notices, fields, buttons) fills it: the fields line up with the
 * card's content, whatever the length of the subtitle or of a notice.
 */
const CARD_WIDTH = 360;

const LoginCard = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [ssoSecondStep, setSsoSecondStep] = useState<SsoSecondStep | null>(null);
  return (
    <Login sx={{ '& .RaLogin-card': { width: CARD_WIDTH, maxWidth: 'calc(100vw - 32px)' } }}>
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="h6" align="center" data-testid="login-title">
          {translate('app.title')}
        </Typography>
        <Typography variant="body2" align="center" color="text.secondary">
          {translate('app.login.subtitle')}
        </Typography>
      </CardContent>
      <SessionEndNotice />
      <SsoErrorNotice />
      {ssoSecondStep ? (
        <SecondFactorStep
          challenge={ssoSecondStep.challenge}
          of={{ sso: { return_to: ssoSecondStep.returnTo } }}
          onRestart={() => {
            setSsoSecondStep(null);
            void navigate('/login', { replace: true });
          }}
        />
      ) : (
        <>
          <SsoCodeExchange onSecondStep={setSsoSecondStep} />
          <SignInForm />
          <SsoProviderButtons />
        </>
      )}
    </Login>
  );
};
