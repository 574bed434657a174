import { useAuthProvider, useTranslate } from 'react-admin';
import { Button, DialogContentText } from '@mui/material';
import type { SecondFactorChallenge } from '../dataProvider/api';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { ProofForm } from './ProofForm';
import { useSecondStep } from './useSecondStep';
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
  const { busy, problem, submit } = useSecondStep(
    props.challenge.second_factor_token,
    { username: props.username },
    async (params) => {
      if (!authProvider) return;
      await authProvider.login(params);
      props.onSignedIn();
    },
  );

  return (
    <>
      <DialogContentText variant="body2" sx={{ mb: 2 }}>
        {translate('second_factor.sign_in.intro', { username: props.username })}
      </DialogContentText>
      <ProofForm
        idPrefix="reauth-second-factor"
        methods={props.challenge.methods}
        submitLabel={translate('second_factor.sign_in.verify')}
        busy={busy}
        error={problem ? translate(problem.message, problem.args) : null}
        onSubmit={(proof) => void submit(proof)}
        extraActions={
          <Button onClick={props.onRestart} disabled={busy}>
            {translate('second_factor.sign_in.start_again')}
          </Button>
        }
      />
    </>
  );
};

export const ReauthSecondStep = (props: Parameters<typeof SecondStep>[0]) => (
  <ScreenMessages modules={SECOND_FACTOR_SIGN_IN_MESSAGES}>
    <SecondStep {...props} />
  </ScreenMessages>
);
