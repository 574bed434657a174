import type { ReactNode } from 'react';
import { skipToken, useQuery } from '@tanstack/react-query';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { NotFoundPage } from './NotFoundPage';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { SERVICE_ACCOUNTS_PATH } from '../resources/service-accounts/paths';

/** A record id as the API accepts it: any other text in the address can only be a wrong or stale link. */
const RECORD_ID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

const isMissing = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === 404;

/**
 * An account the people's pages answer 404 for may be a service account (a `users` row too, whose id the audit log
 * and History link to as an account's): its own page then opens instead of Not found. Asked only after that 404.
 */
function useServiceAccountInstead(id: string, asked: boolean): 'checking' | 'yes' | 'no' {
  const dataProvider = useAppDataProvider();
  const { isPending, isSuccess } = useQuery({
    queryKey: ['serviceAccount', id],
    queryFn: () => dataProvider.getServiceAccount(id),
    enabled: asked,
    retry: false,
  });
  if (!asked) return 'no';
  if (isPending) return 'checking';
  return isSuccess ? 'yes' : 'no';
}

/**
 * A record page's route: an id that cannot exist, or one the server answers 404 for, shows the Not-found page with
 * the way back to the list, never a validator's sentence. The page's own loader asks for the record; this guard sits
 * above it and watches the same cached answer, so a 404 is shown here before the page would treat it as a refusal.
 */
export const RecordRoute = ({ resource, children }: { resource: string; children: ReactNode }) => {
  const { id = '' } = useParams();
  const wellFormed = RECORD_ID.test(id);
  // Watches the page's own read (react-admin's getOne key) without asking for it: the page's loader does that.
  const { error } = useQuery({ queryKey: [resource, 'getOne', { id }], queryFn: skipToken });
  const missing = !wellFormed || isMissing(error);
  const serviceAccount = useServiceAccountInstead(id, missing && wellFormed && resource === 'users');
  if (serviceAccount === 'yes') return <Navigate replace to={`${SERVICE_ACCOUNTS_PATH}/${id}`} />;
  if (serviceAccount === 'checking') return null;
  if (missing) return <NotFoundPage resource={resource} />;
  return <>{children}</>;
};

/** The product's older `/new` address of a create page: the same page under react-admin's `/create`, query kept. */
export const CreateRedirect = () => {
  const { pathname, search } = useLocation();
  return <Navigate replace to={{ pathname: pathname.replace(/\/new$/, '/create'), search }} />;
};
