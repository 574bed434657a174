/**
 * Every Express route the app serves is documented in the contract, and every documented operation has a route.
 * Walks the router stack of the app createApp builds (module routers and the signed-file route included); the
 * console (static files and its SPA fallback) and the reference docs are not part of the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexPkg from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { createLogger } from '../../server/src/http/logging.js';
import { createLocalStorage } from '../../server/src/storage/local.js';
import { loadBundledSpec, operationsOf } from '../support/spec.js';

/** Routes that are not API: the reference docs and the console's SPA fallback. */
const NOT_API = new Set(['GET /docs', 'GET /docs/', 'GET /{*rest}']);

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  name?: string;
}

/** `METHOD /path` for every route in a router stack, nested routers included (module routers use full paths). */
function routesOf(stack: Layer[]): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m] && m !== '_all');
      return paths.flatMap((p) => methods.map((m) => `${m.toUpperCase()} ${p}`));
    }
    return layer.handle?.stack ? routesOf(layer.handle.stack) : [];
  });
}

/** Express path syntax → OpenAPI templates: `:id` → `{id}`, a `*key` wildcard → `{key}`. */
function toTemplate(route: string): string {
  const [method, p = ''] = route.split(' ');
  if (NOT_API.has(route)) return route;
  return `${method} ${p.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{$1}')}`;
}

describe('Express routes and the contract', () => {
  let dataDir: string;
  let routes: string[];
  const documented = new Set(operationsOf(loadBundledSpec()).map((op) => `${op.method.toUpperCase()} ${op.path}`));

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-routes-'));
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) }), port: 0 };
    // Building the app opens no connection: a knex instance that is never queried is enough to list the routes.
    const knex = knexPkg.knex({ client: 'pg' });
    const storage = createLocalStorage({ dir: path.join(dataDir, 'uploads'), secret: 'files:test' });
    const app = createApp({ config, db: { knex }, storage, logger: createLogger('silent') });
    const router = (app as unknown as { router: { stack: Layer[] } }).router;
    routes = [...new Set(routesOf(router.stack).map(toTemplate))];
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('walks a real router stack (module routes, the file route and the console fallback are found)', () => {
    expect(routes).toContain('GET /api-system/clusters');
    expect(routes).toContain('GET /files/{key}');
    expect(routes).toContain('GET /{*rest}');
  });

  it('documents every API route the app serves', () => {
    const undocumented = routes.filter((r) => !NOT_API.has(r) && !documented.has(r));
    expect(undocumented, `routes the contract does not document: ${undocumented.join(', ')}`).toEqual([]);
  });

  it('serves every operation the contract documents', () => {
    const served = new Set(routes);
    const missing = [...documented].filter((op) => !served.has(op));
    expect(missing, `documented operations without a route: ${missing.join(', ')}`).toEqual([]);
  });
});
