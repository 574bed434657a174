import express from 'express';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { feedService } from './service.js';

/** Read-only feeds of the domain dashboards; always the caller's own queue. */
export function feedsRouter({ knex }: ModuleDeps): express.Router {
  const feeds = feedService(knex);
  const r = express.Router();

  r.get(
    '/api/proxy/api/my-pending/purchase-requests/count',
    handle('countMyPendingPurchaseRequests', async ({ req }) => ({ status: 200, body: await feeds.pendingCount(authOf(req).userId, 'pr') })),
  );
  r.get(
    '/api/proxy/api/my-pending/purchase-orders/count',
    handle('countMyPendingPurchaseOrders', async ({ req }) => ({ status: 200, body: await feeds.pendingCount(authOf(req).userId, 'po') })),
  );
  r.get(
    '/api/proxy/api/my-pending/store-requisitions/count',
    handle('countMyPendingStoreRequisitions', async ({ req }) => ({ status: 200, body: await feeds.pendingCount(authOf(req).userId, 'sr') })),
  );
  r.get('/api/proxy/api/approval/pending', handle('listPendingApprovals', async ({ req }) => ({ status: 200, body: await feeds.pending(authOf(req).userId) })));
  r.get('/api/proxy/api/approval/summary', handle('getApprovalSummary', async ({ req }) => ({ status: 200, body: await feeds.summary(authOf(req).userId) })));

  return r;
}
