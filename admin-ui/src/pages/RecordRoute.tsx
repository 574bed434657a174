import type { ReactNode } from 'react';
import { useGetOne } from 'react-admin';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { statusOf } from '../lib/problems';
import { NotFoundPage } from './NotFoundPage';

/** A record id as the API accepts it: any other text in the address can only be a wrong or stale link. */
const RECORD_ID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

/**
 * A record page's route: an id that cannot exist, or one the server answers 404 for, shows the Not-found page with
 * the way back to the list, never a validator's sentence. The page's own loader reads the same cached answer; this
 * guard sits above it, so a 404 is shown here before the page would treat it as a refusal.
 */
export const RecordRoute = ({ resource, children }: { resource: string; children: ReactNode }) => {
  const { id = '' } = useParams();
  const wellFormed = RECORD_ID.test(id);
  const { error } = useGetOne(resource, { id }, { enabled: wellFormed });
  if (!wellFormed || statusOf(error) === 404) return <NotFoundPage resource={resource} />;
  return <>{children}</>;
};

/** The product's older `/new` address of a create page: the same page under react-admin's `/create`, query kept. */
export const CreateRedirect = () => {
  const { pathname, search } = useLocation();
  return <Navigate replace to={{ pathname: pathname.replace(/\/new$/, '/create'), search }} />;
};
