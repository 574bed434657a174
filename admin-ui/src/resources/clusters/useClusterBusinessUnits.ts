import { useGetList } from 'react-admin';
import type { BusinessUnit } from '../../types';

/** All live BUs of a cluster (perpage=-1), sorted by name; shared by the BU and users cards. */
export function useClusterBusinessUnits(clusterId: string) {
  const result = useGetList<BusinessUnit>('business-units', {
    pagination: { page: 1, perPage: -1 },
    sort: { field: 'name', order: 'ASC' },
    filter: { cluster_id: clusterId },
  });
  const sorted = [...(result.data ?? [])].sort((a, b) =>
    (a.name ?? '').localeCompare(b.name ?? '', undefined, { sensitivity: 'base' }),
  );
  return { ...result, data: sorted };
}
