import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { stepUp as defaultStepUp, type StepUp } from '../dataProvider/stepUp';

// The form (and the passkey library behind it) loads the first time an action asks for it.
const StepUpForm = lazy(async () => ({ default: (await import('../second-factor/StepUpForm')).StepUpForm }));

/**
 * Mounted in the layout beside SessionExpiredDialog: it tells the session that someone can confirm a step-up, and shows
 * the "Confirm it is you" dialog while a sensitive call waits. The screen behind stays as it was; once confirmed, the
 * call is sent again and the action completes.
 */
export const StepUpDialog = ({ stepUp = defaultStepUp }: { stepUp?: StepUp }) => {
  const asking = useSyncExternalStore(stepUp.subscribe, stepUp.isAsking);
  useEffect(() => stepUp.attach(), [stepUp]);
  if (!asking) return null;
  return (
    <Suspense fallback={null}>
      <StepUpForm stepUp={stepUp} />
    </Suspense>
  );
};
