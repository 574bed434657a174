import { useState } from 'react';
import type { PasskeySignInParams, SecondFactorSignInParams, SecondStepOf } from '../authProvider';
import type { Proof } from './ProofForm';
import { factorProblem, type FactorProblem } from './problems';

/**
 * A sign-in's second step: the proof the form gives, sent by `signIn` as the auth provider's sign-in parameters with
 * the step's token; a refusal is kept (`problem`) to be said in place. `submit` never rejects.
 */
export function useSecondStep(
  token: string,
  of: SecondStepOf,
  signIn: (params: SecondFactorSignInParams | PasskeySignInParams) => Promise<unknown>,
) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FactorProblem | null>(null);
  const submit = async (proof: Proof) => {
    setBusy(true);
    setProblem(null);
    try {
      await signIn(
        proof.method === 'passkey'
          ? { ...of, passkey: true, second_factor_token: token }
          : { ...of, second_factor_token: token, method: proof.method, code: proof.code },
      );
    } catch (error) {
      setProblem(factorProblem(error, proof.method === 'passkey'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, submit };
}
