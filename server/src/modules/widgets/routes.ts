import { ifMatch } from '../../core/etag.js';
import { operations, versioned } from '../../http/handler.js';
import type { WidgetService } from './service.js';

/** The caller's own dashboard: sign-in only, and every query is scoped to the caller. */
export function widgetRoutes({ widgets }: { widgets: WidgetService }) {
  return operations({
    listWidgets: async ({ auth }) => ({ status: 200, body: await widgets.list(auth) }),
    createWidget: async ({ auth, body }) => {
      const created = await widgets.add(auth, body);
      return versioned(201, created, { Location: `/api/proxy/api/me/dashboard-widgets/${created.id}` });
    },
    updateWidget: async ({ auth, params, body, req }) =>
      versioned(200, await widgets.change(auth, params.id, body, ifMatch(req.headers['if-match']))),
    deleteWidget: async ({ auth, params }) => {
      await widgets.remove(auth, params.id);
      return { status: 204 };
    },
  });
}
