import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { reauth as defaultReauth, type Reauth } from '../dataProvider/reauth';

// The form is loaded the first time a session expires; until then only this listener is in the page.
const SessionExpiredForm = lazy(async () => ({ default: (await import('./SessionExpiredForm')).SessionExpiredForm }));

/**
 * Mounted in the layout: it tells the session that someone can ask for the password again, and shows the sign-in
 * dialog while a session is lost. The page behind stays as it was; once signed in, the waiting calls go on.
 */
export const SessionExpiredDialog = ({ reauth = defaultReauth }: { reauth?: Reauth }) => {
  const asking = useSyncExternalStore(reauth.subscribe, reauth.isAsking);
  useEffect(() => reauth.attach(), [reauth]);
  if (!asking) return null;
  return (
    <Suspense fallback={null}>
      <SessionExpiredForm reauth={reauth} asking={asking} />
    </Suspense>
  );
};
