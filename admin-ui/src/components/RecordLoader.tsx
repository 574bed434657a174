import type { ReactNode } from 'react';
import { Loading, useGetOne, type RaRecord } from 'react-admin';
import { Box } from '@mui/material';
import { ErrorState } from './ErrorState';

/** Loads one record for an edit page: the loading state, then the error state with a retry, then the page. */
export const RecordLoader = <T extends RaRecord>({
  resource,
  id,
  children,
}: {
  resource: string;
  id: string;
  children: (record: T, refetch: () => Promise<unknown>) => ReactNode;
}) => {
  const { data, isPending, error, refetch } = useGetOne<T>(resource, { id });
  if (isPending) return <Loading />;
  if (error || !data)
    return (
      <Box sx={{ mt: 2 }}>
        <ErrorState error={error} onRetry={() => refetch()} />
      </Box>
    );
  return <>{children(data, refetch)}</>;
};
