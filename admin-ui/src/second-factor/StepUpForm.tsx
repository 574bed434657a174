import { useState } from 'react';
import { Dialog, DialogContent, DialogContentText, DialogTitle, Button } from '@mui/material';
import type { StepUp } from '../dataProvider/stepUp';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { useTranslate } from 'react-admin';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { useNotice } from '../lib/notice';
import { ProofForm, type Proof } from './ProofForm';
import { factorProblem, type FactorProblem } from './problems';
import { SECOND_FACTOR_SIGN_IN_MESSAGES } from './signInMessages';

/**
 * "Confirm it is you", while a sensitive call waits (mounted by StepUpDialog). A code or a passkey marks this session
 * as confirmed; the waiting call then goes again. Cancel ends the call with the refusal it met, said by its screen.
 */
const StepUpBody = ({ stepUp }: { stepUp: StepUp }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FactorProblem | null>(null);
  const methods = stepUp.methods();

  // Never rejects (a failure is shown in the dialog), so the form fires it and forgets it.
  const submit = async (proof: Proof) => {
    setBusy(true);
    setProblem(null);
    try {
      await dataProvider.stepUp(proof);
      notice('second_factor.step_up.confirmed', { type: 'info' });
      stepUp.confirmed();
    } catch (error) {
      setProblem(factorProblem(error, proof.method === 'passkey'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open aria-labelledby="step-up-title" aria-describedby="step-up-text" data-testid="step-up" maxWidth="xs">
      <DialogTitle id="step-up-title">{translate('second_factor.step_up.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="step-up-text" sx={{ mb: 2 }}>
          {translate('second_factor.step_up.intro')}
        </DialogContentText>
        <ProofForm
          idPrefix="step-up"
          methods={methods}
          submitLabel={translate('second_factor.step_up.confirm')}
          busy={busy}
          error={problem ? translate(problem.message, problem.args) : null}
          onSubmit={(proof) => void submit(proof)}
          extraActions={
            <Button onClick={() => stepUp.cancelled()} disabled={busy}>
              {translate('ra.action.cancel')}
            </Button>
          }
        />
      </DialogContent>
    </Dialog>
  );
};

export const StepUpForm = ({ stepUp }: { stepUp: StepUp }) => (
  <ScreenMessages modules={SECOND_FACTOR_SIGN_IN_MESSAGES}>
    <StepUpBody stepUp={stepUp} />
  </ScreenMessages>
);
