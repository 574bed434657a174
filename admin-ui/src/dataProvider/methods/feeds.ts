import type { ApprovalFeed, PendingCount, PendingDoc } from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';

/** The counts and approval lists of the domain dashboards. */
export function feedMethods(c: ApiClient) {
  return {
    async getMyPendingCount(doc: PendingDoc): Promise<PendingCount> {
      switch (doc) {
        case 'purchase-requests':
          return unwrap(await c.GET('/api/proxy/api/my-pending/purchase-requests/count'));
        case 'purchase-orders':
          return unwrap(await c.GET('/api/proxy/api/my-pending/purchase-orders/count'));
        case 'store-requisitions':
          return unwrap(await c.GET('/api/proxy/api/my-pending/store-requisitions/count'));
      }
    },
    async getPendingApprovals(): Promise<ApprovalFeed> {
      return unwrap(await c.GET('/api/proxy/api/approval/pending'));
    },
    async getApprovalSummary(): Promise<ApprovalFeed> {
      return unwrap(await c.GET('/api/proxy/api/approval/summary'));
    },
  };
}
