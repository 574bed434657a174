import type { DataProvider } from 'react-admin';
import type { Cluster } from '../../types';
import { checkBuLicence } from '../../lib/licence';

/**
 * Client-side licence pre-check before a BU create: when the chosen cluster has max_license_bu,
 * count its live BUs; at or above the cap, return the licence-limit message (and the caller sends no create).
 */
export async function precheckBuLicence(
  dataProvider: Pick<DataProvider, 'getOne' | 'getList'>,
  clusterId: string,
): Promise<string | null> {
  const { data: cluster } = await dataProvider.getOne<Cluster>('clusters', { id: clusterId });
  const max = cluster?.max_license_bu;
  if (max === null || max === undefined) return null;
  const { total } = await dataProvider.getList('business-units', {
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'created_at', order: 'DESC' },
    filter: { cluster_id: clusterId },
  });
  return checkBuLicence(total ?? 0, max);
}
