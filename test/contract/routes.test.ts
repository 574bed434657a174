/**
 * The API is served only through the contract: each request is dispatched to the handler of the operation it
 * addresses, so there is no hand-written API route to drift. Checks that every documented operation has a handler,
 * that every handler names a documented operation, and that the Express router holds no API route besides the
 * signed-file download the local storage serves. The console, its SPA fallback and the docs are not part of the API.
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
import { createHandlers, createServices } from '../../server/src/modules/index.js';
import { staticChangeFeed } from '../../server/src/db/changes.js';
import { loadBundledSpec, operationsOf } from '../support/spec.js';

/** Routes that are not API: the reference docs. */
const NOT_API = new Set(['GET /docs', 'GET /docs/']);

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

describe('the API and the contract', () => {
  let dataDir: string;
  let routes: string[];
  let handled: string[];
  const operations = operationsOf(loadBundledSpec());

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-routes-'));
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) }), port: 0 };
    // Building the app opens no connection: a knex instance that is never queried is enough to list the routes.
    const knex = knexPkg.knex({ client: 'pg' });
    const storage = createLocalStorage({ dir: path.join(dataDir, 'uploads'), secret: 'files:test' });
    const logger = createLogger('silent');
    const app = createApp({ config, db: { knex }, storage, logger });
    const router = (app as unknown as { router: { stack: Layer[] } }).router;
    routes = [...new Set(routesOf(router.stack).map(toTemplate))];
    const deps = { config, knex, storage, logger, changes: staticChangeFeed() };
    handled = Object.keys(createHandlers({ ...deps, services: createServices(deps) }));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('walks a real router stack (the file route and the reference docs are found)', () => {
    expect(routes).toContain('GET /files/{key}');
    expect(routes).toContain('GET /docs');
  });

  it('has a handler for every operation of the contract, and none for an operation it does not document', () => {
    const documented = operations.map((op) => op.operationId!).filter((id) => id !== 'getStoredFile');
    expect([...handled].sort()).toEqual([...documented].sort());
  });

  it('serves no API route of its own: only the signed-file download, which the contract documents', () => {
    const api = routes.filter((r) => !NOT_API.has(r) && / \/(api|api-system|files|healthz|readyz)(\/|$)/.test(r));
    expect(api).toEqual(['GET /files/{key}']);
    expect(operations.some((op) => op.operationId === 'getStoredFile' && op.path === '/files/{key}')).toBe(true);
  });
});
