import { useEffect, type ReactNode } from 'react';
import { Loading, useBasename, useGetOne, type RaRecord } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Box } from '@mui/material';
import { ErrorState } from './ErrorState';
import { NotFoundPage } from '../pages/NotFoundPage';
import { statusOf } from '../lib/problems';

/**
 * Loads one record for a record page: the loading state, then the page. A refusal (403) goes to the access-denied
 * screen. A 404 shows the Not-found page in place: the server answers it alike for a record that does not exist and
 * one in a cluster the caller holds no grant on, so it never says which. Any other failure shows the error with a retry.
 */
export const RecordLoader = <T extends RaRecord>({
  resource,
  id,
  children,
}: {
  resource: string;
  id: string;
  children: (record: T, refetch: () => Promise<unknown>) => ReactNode;
}) => {
  const navigate = useNavigate();
  const basename = useBasename();
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, isPending, error, refetch } = useGetOne<T>(resource, { id });
  const status = statusOf(error);
  const refused = status === 403;

  useEffect(() => {
    // The router finishes the redirect on its own; nothing here waits for it.
    if (refused) void navigate(`${basename}/access-denied`, { replace: true });
  }, [refused, navigate, basename]);

  if (isPending || refused) return <Loading />;
  if (status === 404) return <NotFoundPage resource={resource} />;
  if (error || !data)
    return (
      <Box sx={{ mt: 2 }}>
        <ErrorState error={error} onRetry={() => void refetch()} />
      </Box>
    );
  return <>{children(data, refetch)}</>;
};
