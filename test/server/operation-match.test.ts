// A request is matched to its contract operation once (docs/adr/0018-one-operation-match.md): the operation the
// pipeline dispatches to and applies the access rule of is the one the request validator checks the request against.
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express, { type ErrorRequestHandler, type Request } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../server/src/core/errors.js';
import { identifyOperation, operationsOf } from '../../server/src/http/operations.js';
import { API_SPEC_PATH, loadApiSpec } from '../../server/src/http/spec.js';
import { startTestServer, type TestServer } from './support/index.js';

const CLUSTER = '0000000a-0000-4000-8000-000000000000';
const OTHER = '0000000b-0000-4000-8000-000000000000';

describe('identifyOperation', () => {
  const identify = identifyOperation(operationsOf(loadApiSpec()));
  const matchOf = (method: string, url: string) => {
    const req = { method, originalUrl: url } as Request;
    const res = { locals: {} } as express.Response;
    identify(req, res, () => undefined);
    return { operation: req.operation?.id, route: req.contractRoute };
  };

  it('when a path has parameters, then the match names the route in both forms and decodes each parameter', () => {
    expect(matchOf('DELETE', `/api-system/users/${CLUSTER}/grants/a%2Fb%20c?x=1`)).toEqual({
      operation: 'removeUserGrant',
      route: {
        requestPath: `/api-system/users/${CLUSTER}/grants/a%2Fb%20c`,
        openApiRoute: '/api-system/users/{id}/grants/{grantId}',
        expressRoute: '/api-system/users/:id/grants/:grantId',
        pathParams: { id: CLUSTER, grantId: 'a/b c' },
      },
    });
  });

  it('when a literal route and a parameter route both fit, then the literal one is matched', () => {
    expect(matchOf('GET', '/api-system/print-template-mappings/resolve').route?.openApiRoute).toBe(
      '/api-system/print-template-mappings/resolve',
    );
    expect(matchOf('GET', '/api-system/clusters/export/').route).toMatchObject({
      openApiRoute: '/api-system/clusters/export',
      pathParams: {},
    });
  });

  it('when the method is not one of the path, then the route is still matched, for the 405 and its Allow', () => {
    expect(matchOf('PATCH', `/api-system/clusters/${CLUSTER}`)).toMatchObject({
      operation: undefined,
      route: { openApiRoute: '/api-system/clusters/{id}' },
    });
  });

  it('when a parameter is not valid percent-encoding, or no route fits, then nothing is matched for the validator', () => {
    expect(matchOf('GET', '/api-system/clusters/%E0%A4%A')).toEqual({ operation: 'getCluster', route: undefined });
    expect(matchOf('GET', '/api-system/Clusters')).toEqual({ operation: undefined, route: undefined });
    expect(matchOf('GET', '/api-system/clusters//')).toEqual({ operation: undefined, route: undefined });
  });
});

describe('the request validator and the identified match', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    const app = express();
    app.use(identifyOperation(operationsOf(loadApiSpec())));
    // Stands in for a match the validator could not have made itself: the path says CLUSTER, the match says OTHER
    // (`?match=other`), or says OTHER but for another path (`?match=stale`).
    app.use((req, _res, next) => {
      const match = req.contractRoute;
      if (match && req.query.match) match.pathParams = { id: OTHER };
      if (match && req.query.match === 'stale') match.requestPath = '/elsewhere';
      next();
    });
    app.use(
      OpenApiValidator.middleware({
        apiSpec: API_SPEC_PATH,
        validateApiSpec: false,
        validateRequests: { allowUnknownQueryParameters: true, coerceTypes: true },
        validateResponses: false,
        validateSecurity: false,
        fileUploader: false,
      }),
    );
    app.use((req, res) => {
      const { openapi } = req as Request & { openapi?: { openApiRoute: string; pathParams: Record<string, string> } };
      res.json({ operation: req.operation?.id, route: openapi?.openApiRoute, params: openapi?.pathParams });
    });
    const answer: ErrorRequestHandler = (err: { status?: number; message?: string }, _req, res, _next) => {
      res.status(err.status ?? 500).json({ message: err.message });
    };
    app.use(answer);
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when the request carries a match, then the validator takes its route and parameters instead of its own lookup', async () => {
    const res = await fetch(`${baseUrl}/api-system/clusters/${CLUSTER}?match=other`);
    expect(await res.json()).toEqual({
      operation: 'getCluster',
      route: '/api-system/clusters/{id}',
      params: { id: OTHER },
    });
  });

  it('when the match was made for another path, then the validator looks the path up itself', async () => {
    const res = await fetch(`${baseUrl}/api-system/clusters/${CLUSTER}?match=stale`);
    expect(await res.json()).toMatchObject({ route: '/api-system/clusters/{id}', params: { id: CLUSTER } });
  });
});

describe('one match over the whole request pipeline', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    // Each handler answers with what it was given, so a test sees which operation ran and with which parameters.
    t = await startTestServer('pglite', {
      handlerOverrides: {
        getCluster: async ({ params }) => {
          throw new NotFoundError(`getCluster id=${JSON.stringify(params.id)}`);
        },
        exportClusters: async ({ params }) => {
          throw new NotFoundError(`exportClusters params=${JSON.stringify(params)}`);
        },
      },
    });
    token = await t.login('admin');
  });
  afterAll(() => t?.close());

  const answer = async (method: string, path: string, auth = true) => {
    const res = await t.fetch(path, { method, token: auth ? token : undefined });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as { detail?: string; errors?: Array<{ path: string }> }) : {};
    return { status: res.status, allow: res.headers.get('allow'), detail: body.detail, errors: body.errors };
  };

  it('when a path parameter is sent, then the operation runs with it decoded, with or without a trailing slash', async () => {
    for (const path of [`/api-system/clusters/${CLUSTER}`, `/api-system/clusters/${CLUSTER}/`]) {
      expect((await answer('GET', path)).detail, path).toBe(`getCluster id="${CLUSTER}"`);
    }
    const encoded = `/api-system/clusters/${CLUSTER.replace('a', '%61')}`;
    expect((await answer('GET', encoded)).detail).toBe(`getCluster id="${CLUSTER}"`);
    expect(await answer('HEAD', `/api-system/clusters/${CLUSTER}`)).toMatchObject({ status: 404 });
  });

  it("when a path parameter does not fit the operation's parameter, then a 400 names it", async () => {
    expect(await answer('GET', '/api-system/clusters/not-a-uuid')).toMatchObject({
      status: 400,
      errors: [{ path: '/params/id' }],
    });
  });

  it('when a literal route fits, then it beats the parameter route in the pipeline and in the validator alike', async () => {
    expect((await answer('GET', '/api-system/clusters/export')).detail).toBe('exportClusters params={}');
    // The validator used to match this case-insensitively to the export route while the pipeline ran getCluster,
    // with no id at all. Now both see getCluster, whose id must be a UUID.
    expect(await answer('GET', '/api-system/clusters/EXPORT')).toMatchObject({
      status: 400,
      errors: [{ path: '/params/id' }],
    });
  });

  it('when a path parameter is not valid percent-encoding, then 400 for a caller, 401 without a token, as before', async () => {
    expect(await answer('GET', '/api-system/clusters/%E0%A4%A')).toMatchObject({
      status: 400,
      detail: "/api-system/clusters/%E0%A4%A malformed uri'",
    });
    expect((await answer('GET', '/api-system/clusters/%E0%A4%A', false)).status).toBe(401);
  });

  it('when the path is not in the contract, then the same 404 problems as before', async () => {
    for (const path of ['/api-system/no-such-thing', '/api-system/clusters//', '/files/']) {
      expect(await answer('GET', path), path).toMatchObject({ status: 404, detail: 'Not found' });
    }
    expect(await answer('GET', '/healthz/extra', false)).toMatchObject({
      status: 404,
      detail: 'No route for GET /healthz/extra',
    });
    expect(await answer('GET', `/api-system/Clusters/${CLUSTER}`)).toMatchObject({
      status: 404,
      detail: `No route for GET /api-system/Clusters/${CLUSTER}`,
    });
    expect((await answer('GET', `/api-system/Clusters/${CLUSTER}`, false)).status).toBe(401);
  });

  it("when the method is not one of the path's, then the same 405 problems, with the path's methods, as before", async () => {
    expect(await answer('PATCH', `/api-system/clusters/${CLUSTER}`)).toMatchObject({
      status: 405,
      allow: 'DELETE, PUT, GET',
    });
    expect((await answer('PATCH', `/api-system/clusters/${CLUSTER}`, false)).status).toBe(401);
    // The literal route is the path's route, even where the parameter route has the method.
    expect(await answer('DELETE', '/api-system/clusters/export')).toMatchObject({ status: 405, allow: 'GET' });
    expect(await answer('PUT', '/api/auth/login', false)).toMatchObject({ status: 405, allow: 'POST' });
    expect(await answer('POST', '/healthz', false)).toMatchObject({ status: 405, allow: 'GET' });
    // A path the pipeline does not match in this case is still answered by the validator's own lookup.
    expect(await answer('PATCH', `/api-system/Clusters/${CLUSTER}`)).toMatchObject({
      status: 405,
      allow: 'DELETE, PUT, GET',
    });
  });
});
