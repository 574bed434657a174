import { operations } from '../../http/handler.js';
import type { FeedService } from './service.js';

/** Read-only feeds of the domain dashboards; always the caller's own queue. */
export function feedRoutes({ feeds }: { feeds: FeedService }) {
  return operations({
    countMyPendingPurchaseRequests: async ({ auth }) => ({
      status: 200,
      body: await feeds.pendingCount(auth.userId, 'pr'),
    }),
    countMyPendingPurchaseOrders: async ({ auth }) => ({
      status: 200,
      body: await feeds.pendingCount(auth.userId, 'po'),
    }),
    countMyPendingStoreRequisitions: async ({ auth }) => ({
      status: 200,
      body: await feeds.pendingCount(auth.userId, 'sr'),
    }),
    listPendingApprovals: async ({ auth }) => ({ status: 200, body: await feeds.pending(auth.userId) }),
    getApprovalSummary: async ({ auth }) => ({ status: 200, body: await feeds.summary(auth.userId) }),
  });
}
