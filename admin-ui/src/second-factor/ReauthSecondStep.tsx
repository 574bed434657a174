import { useAuthProvider, useTranslate } from 'react-admin';
import { DialogContentText } from '@mui/material';
import type { SecondFactorChallenge } from '../dataProvider/api';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { SecondStepForm } from './SecondStepForm';
import { SECOND_FACTOR_SIGN_IN_MESSAGES } from './signInMessages';

/**
 * The second step inside the sign-in-again dialog, for an account with a second factor: the page behind stays as it
 * was, and the waiting calls go on once it is answered (`onSignedIn`).
 */
const SecondStep = (props: {
  challenge: SecondFactorChallenge;
  username: string;
  onSignedIn: () => void;
  onRestart: () => void;
}) => {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  return (
    <>
      <DialogContentText variant="body2" sx={{ mb: 2 }}>
        {translate('second_factor.sign_in.intro', { username: props.username })}
      </DialogContentText>
      <SecondStepForm
        idPrefix="reauth-second-factor"
        challenge={props.challenge}
        of={{ username: props.username }}
        signIn={async (params) => {
          if (!authProvider) return;
          await authProvider.login(params);
          props.onSignedIn();
        }}
        onRestart={props.onRestart}
      />
    </>
  );
};

export const ReauthSecondStep = (props: Parameters<typeof SecondStep>[0]) => (
  <ScreenMessages modules={SECOND_FACTOR_SIGN_IN_MESSAGES}>
    <SecondStep {...props} />
  </ScreenMessages>
);
