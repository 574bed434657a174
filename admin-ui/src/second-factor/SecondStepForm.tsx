import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Button } from '@mui/material';
import type { SecondFactorChallenge } from '../dataProvider/api';
import type { PasskeySignInParams, SecondFactorSignInParams, SecondStepOf } from '../authProvider';
import { ProofForm, type Proof } from './ProofForm';
import { factorProblem, type FactorProblem } from './problems';

/**
 * A sign-in's second step, wherever it is asked (the login page, the sign-in-again dialog): the proof form, sent by
 * `signIn` as the auth provider's sign-in parameters with the step's token, a refusal said in place, and Start again,
 * which stands out once the refusal says only a new sign-in can help (an expired step).
 */
export const SecondStepForm = (props: {
  challenge: SecondFactorChallenge;
  of: SecondStepOf;
  signIn: (params: SecondFactorSignInParams | PasskeySignInParams) => Promise<unknown>;
  onRestart: () => void;
  idPrefix: string;
}) => {
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FactorProblem | null>(null);
  const token = props.challenge.second_factor_token;

  const submit = async (proof: Proof) => {
    setBusy(true);
    setProblem(null);
    try {
      await props.signIn(
        proof.method === 'passkey'
          ? { ...props.of, passkey: true, second_factor_token: token }
          : { ...props.of, second_factor_token: token, method: proof.method, code: proof.code },
      );
    } catch (error) {
      setProblem(factorProblem(error, proof.method === 'passkey'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ProofForm
      idPrefix={props.idPrefix}
      methods={props.challenge.methods}
      submitLabel={translate('second_factor.sign_in.verify')}
      busy={busy}
      error={problem ? translate(problem.message, problem.args) : null}
      onSubmit={(proof) => void submit(proof)}
      extraActions={
        <Button onClick={props.onRestart} disabled={busy} variant={problem?.restart ? 'contained' : 'text'}>
          {translate('second_factor.sign_in.start_again')}
        </Button>
      }
    />
  );
};
