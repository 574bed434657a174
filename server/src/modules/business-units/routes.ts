import { ifMatch } from '../../core/etag.js';
import { operations, versioned } from '../../http/handler.js';
import { csvReply, pageOrAll } from '../../http/export.js';
import { lifecycleActions, runBulk } from '../../http/bulk.js';
import type { BusinessUnitService } from './service.js';

export function businessUnitRoutes({ businessUnits }: { businessUnits: BusinessUnitService }) {
  return operations({
    listBusinessUnits: async ({ auth, query }) => ({ status: 200, body: await businessUnits.list(auth, query) }),
    // A refused export rejects the handler's promise, as every other handler's refusal does.
    exportBusinessUnits: ({ auth, query, req }) =>
      Promise.resolve().then(() => csvReply(businessUnits.export(auth, pageOrAll(req, query)))),
    bulkBusinessUnits: async ({ auth, body, req }) => runBulk(req, body, lifecycleActions(businessUnits, auth)),
    getBusinessUnit: async ({ auth, params }) => versioned(200, await businessUnits.get(auth, params.id)),
    createBusinessUnit: async ({ auth, body }) => {
      const created = await businessUnits.create(auth, body);
      return versioned(201, created, { Location: `/api-system/business-units/${created.id}` });
    },
    updateBusinessUnit: async ({ auth, params, body, req }) =>
      versioned(200, await businessUnits.update(auth, params.id, body, ifMatch(req.headers['if-match']))),
    restoreBusinessUnit: async ({ auth, params }) => versioned(200, await businessUnits.restore(auth, params.id)),
    deleteBusinessUnit: async ({ auth, params }) => {
      await businessUnits.remove(auth, params.id);
      return { status: 204 };
    },
  });
}
