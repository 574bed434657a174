import { useEffect, type ReactNode } from 'react';
import { useBasename, useCanAccess, type RaRecord } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { PageLoading } from '../layout/PageLoading';

/**
 * Renders its children only once canAccess has allowed the action; a refusal (or a failed check)
 * sends the browser to the access-denied screen, and nothing of the guarded page is shown meanwhile.
 */
export const RequireAccess = (props: { action: string; resource: string; record?: RaRecord; children: ReactNode }) => {
  const navigate = useNavigate();
  const basename = useBasename();
  const { isPending, canAccess, error } = useCanAccess({
    action: props.action,
    resource: props.resource,
    record: props.record,
  });
  const denied = !isPending && (canAccess !== true || !!error);

  useEffect(() => {
    // The router finishes the redirect on its own; nothing here waits for it.
    if (denied) void navigate(`${basename}/access-denied`, { replace: true });
  }, [denied, navigate, basename]);

  if (isPending || denied) return <PageLoading />;
  return <>{props.children}</>;
};
