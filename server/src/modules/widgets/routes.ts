import express from 'express';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { widgetService } from './service.js';

const BASE = '/api/proxy/api/me/dashboard-widgets';

/** The caller's own dashboard: sign-in only, and every query is scoped to the caller. */
export function widgetsRouter({ knex }: ModuleDeps): express.Router {
  const widgets = widgetService(knex);
  const r = express.Router();

  r.get(BASE, handle('listWidgets', async ({ req }) => ({ status: 200, body: await widgets.list(authOf(req).userId) })));

  r.post(
    BASE,
    handle('createWidget', async ({ req, body }) => {
      const created = await widgets.add(authOf(req).userId, body);
      return { status: 201, body: created, headers: { Location: `${BASE}/${created.id}` } };
    }),
  );

  r.patch(
    `${BASE}/:id`,
    handle('updateWidget', async ({ req, params, body }) => ({ status: 200, body: await widgets.change(authOf(req).userId, params.id, body) })),
  );

  r.delete(
    `${BASE}/:id`,
    handle('deleteWidget', async ({ req, params }) => {
      await widgets.remove(authOf(req).userId, params.id);
      return { status: 204 };
    }),
  );

  return r;
}
