import { operations } from '../../http/handler.js';
import type { FeedService } from './service.js';

/** Read-only feeds of the domain dashboards; always the caller's own queue. */
export function feedRoutes({ feeds }: { feeds: FeedService }) {
  return operations({
    countMyPendingPurchaseRequests: async ({ auth }) => ({
      status: 200,
      body: await feeds.pendingCount(auth, 'pr'),
    }),
    countMyPendingPurchaseOrders: async ({ auth }) => ({
      status: 200,
      body: await feeds.pendingCount(auth, 'po'),
    }),
    countMyPendingStoreRequisitions: async ({ auth }) => ({
      status: 200,
      body: await feeds.pendingCount(auth, 'sr'),
    }),
    listPendingApprovals: async ({ auth }) => ({ status: 200, body: await feeds.pending(auth) }),
    getApprovalSummary: async ({ auth }) => ({ status: 200, body: await feeds.summary(auth) }),
  });
}
