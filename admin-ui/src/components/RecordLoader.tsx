import { useEffect, type ReactNode } from 'react';
import { Loading, useBasename, useGetOne, type RaRecord } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Box } from '@mui/material';
import { ErrorState } from './ErrorState';
import { statusOf } from '../lib/problems';

/**
 * A record the caller may not read answers 403, and one in a cluster the caller holds no grant on answers 404 (the
 * server does not say which records exist): both lead to the one access-denied screen.
 */
const isUnavailable = (error: unknown) => {
  const status = statusOf(error);
  return status === 403 || status === 404;
};

/**
 * Loads one record for a record page: the loading state, then the page; a refusal or a missing record goes to the
 * access-denied screen, any other failure shows the error with a retry.
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
  const unavailable = isUnavailable(error);

  useEffect(() => {
    // The router finishes the redirect on its own; nothing here waits for it.
    if (unavailable) void navigate(`${basename}/access-denied`, { replace: true });
  }, [unavailable, navigate, basename]);

  if (isPending || unavailable) return <Loading />;
  if (error || !data)
    return (
      <Box sx={{ mt: 2 }}>
        <ErrorState error={error} onRetry={() => void refetch()} />
      </Box>
    );
  return <>{children(data, refetch)}</>;
};
