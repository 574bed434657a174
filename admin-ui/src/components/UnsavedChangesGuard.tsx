import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import { Confirm } from 'react-admin';

/** Mounted only while there are unsaved edits, so no blocker exists otherwise. */
const ActiveGuard = () => {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  return (
    <Confirm
      isOpen={blocker.state === 'blocked'}
      title="app.unsaved.title"
      content="app.unsaved.message"
      confirm="app.unsaved.leave"
      cancel="app.unsaved.stay"
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
};

/** Asks before leaving the page (in-app navigation or tab close) while there are unsaved edits. */
export const UnsavedChangesGuard = ({ when }: { when: boolean }) => (when ? <ActiveGuard /> : null);
