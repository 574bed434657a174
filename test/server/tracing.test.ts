// Traces: the OpenTelemetry SDK started as main.ts starts it, its spans caught by the SDK's in-memory exporter. A
// request is a server span named by its operationId, its SQL statements and storage calls are its children, and no
// attribute carries what a caller sent (a password, a token, a search term, a statement's values).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTelemetry, type Telemetry } from '../../server/src/observability/telemetry.js';
import { start } from '../../server/src/main.js';
import { tracingOf } from '../../server/src/config-tracing.js';
import { aCluster, unique } from '../support/factory.js';
import { wellFormedPng } from '../support/images.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;

const serverSpans = (name: string) =>
  exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER && s.name === name);
const childrenOf = (parent: ReadableSpan) =>
  exporter
    .getFinishedSpans()
    .filter(
      (s) =>
        s.spanContext().traceId === parent.spanContext().traceId &&
        s.parentSpanContext?.spanId === parent.spanContext().spanId,
    );
/** Every attribute value of every span caught, as text. */
const everyAttribute = () =>
  exporter
    .getFinishedSpans()
    .flatMap((s) => Object.values(s.attributes).map(String))
    .join('\n');

// First, before the in-memory SDK below: main.ts's own start registers the SDK process-wide, and stops it.
describe('tracing configured', () => {
  it('when OTEL_EXPORTER_OTLP_ENDPOINT names a collector, then the server sends its spans there over OTLP/HTTP protobuf, with the configured headers', async () => {
    const exports: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const key = unique('collector-key');
    let token = '';
    const running = await start({
      PORT: '0',
      DATABASE_URL: 'memory://',
      JWT_SECRET: 'j'.repeat(48),
      LOG_LEVEL: 'silent',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${key}`,
      OTEL_SERVICE_NAME: 'platform-admin-under-test',
    });
    try {
      const login = await fetch(`${running.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: running.config.admin.password }),
      });
      token = ((await login.json()) as { access_token: string }).access_token;
      const list = await fetch(`${running.url}/api-system/clusters`, { headers: { Authorization: `Bearer ${token}` } });
      expect(list.status).toBe(200);
    } finally {
      // Stopping flushes the batch: the spans are sent before it returns.
      await running.stop();
      collector.close();
    }
    expect(exports.length).toBeGreaterThan(0);
    expect(exports.every((e) => e.path === '/v1/traces')).toBe(true);
    expect(exports[0]!.headers['content-type']).toBe('application/x-protobuf');
    expect(exports[0]!.headers['x-api-key']).toBe(key);
    const sent = Buffer.concat(exports.map((e) => e.body)).toString('latin1');
    for (const name of ['platform-admin-under-test', 'login', 'listClusters', 'SELECT clusters'])
      expect(sent).toContain(name);
    for (const secret of [token, running.config.admin.password]) expect(sent).not.toContain(secret);
  });
});

describe('with the SDK running (spans caught in memory)', () => {
  beforeAll(async () => {
    // Configured for nothing, as a server is by default: the in-memory exporter stands in for OTLP.
    telemetry = (await startTelemetry(
      { ...tracingOf(() => undefined, []), version: 'test' },
      { spanExporter: exporter },
    ))!;
  });
  afterAll(() => telemetry?.shutdown());

  describe('tracing off', () => {
    it('when a server is built without tracing, then its requests make no span', async () => {
      const t = await startTestServer(engines()[0]);
      try {
        exporter.reset();
        const admin = await t.login('admin');
        expect((await t.fetch('/api-system/clusters', { token: admin })).status).toBe(200);
        expect(exporter.getFinishedSpans()).toEqual([]);
      } finally {
        await t.close();
      }
    });
  });

  describe.each(engines())('traces on %s', (engine) => {
    let t: TestServer;
    let admin: string;

    beforeAll(async () => {
      t = await startTestServer(engine, { tracing: telemetry.tracing });
      admin = await t.login('admin');
    });
    afterAll(() => t?.close());
    beforeEach(() => exporter.reset());

    it('when the cluster list is read, then one server span named listClusters holds its SQL statements, without values', async () => {
      const term = unique('needle');
      const res = await t.fetch(`/api-system/clusters?search=${term}&perpage=5`, { token: admin });
      expect(res.status).toBe(200);
      const [request, ...more] = serverSpans('listClusters');
      expect(more).toEqual([]);
      expect(request!.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': '/api-system/clusters',
        'http.response.status_code': 200,
      });
      const statements = childrenOf(request!).filter((s) => s.kind === SpanKind.CLIENT);
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement.attributes['db.system']).toBe('postgresql');
        expect(statement.attributes['platform.db.engine']).toBe(engine);
        expect(statement.name).toBe(
          [statement.attributes['db.operation.name'], statement.attributes['db.collection.name']]
            .filter(Boolean)
            .join(' '),
        );
      }
      const texts = statements.map((s) => String(s.attributes['db.query.text']));
      expect(
        texts.some((sql) => /\bfrom "clusters"/i.test(sql)),
        texts.join('\n'),
      ).toBe(true);
      // The search term went to the database as a bound value, so no span repeats it.
      expect(everyAttribute()).not.toContain(term);
    });

    it('when a logo is uploaded, then the upload span has a storage put and the transaction’s statements as children', async () => {
      const cluster = await aCluster(t, {}, { as: admin });
      exporter.reset();
      const form = new FormData();
      form.append('logo', new Blob([wellFormedPng()], { type: 'image/png' }), 'logo.png');
      const res = await t.fetch(`/api-system/clusters/${cluster.id}/logo`, {
        method: 'POST',
        token: admin,
        body: form,
      });
      expect(res.status).toBe(200);
      const [request] = serverSpans('uploadClusterLogo');
      expect(request!.attributes['http.route']).toBe('/api-system/clusters/{id}/logo');
      const children = childrenOf(request!);
      const put = children.find((s) => s.name === 'storage put');
      expect(put?.attributes).toMatchObject({
        'platform.storage.driver': 'local',
        'platform.storage.operation': 'put',
      });
      const key = (await t.knex('clusters').select('logo_key').where({ id: cluster.id }).first()) as {
        logo_key: string;
      };
      expect(put!.attributes['platform.storage.key']).toBe(key.logo_key);
      expect(children.some((s) => s.name === 'storage signed_url')).toBe(true);
      // Written in a transaction: its statements are children of the request too.
      expect(children.some((s) => s.attributes['db.operation.name'] === 'UPDATE')).toBe(true);
      expect(
        children.map((s) => s.name),
        'the audit event is written in the same transaction',
      ).toContain('INSERT audit_events');
    });

    it('when someone signs in, then no span carries the password or the tokens', async () => {
      const res = await t.fetch('/api/auth/login', {
        method: 'POST',
        json: { username: t.config.admin.username, password: t.config.admin.password },
      });
      const { access_token, refresh_token } = (await res.json()) as { access_token: string; refresh_token: string };
      await t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token } });
      await t.fetch('/api/user/permission/platform', { token: access_token });
      expect(serverSpans('login')).toHaveLength(1);
      expect(serverSpans('refreshToken')).toHaveLength(1);
      expect(serverSpans('getPlatformPermissions')).toHaveLength(1);
      const attributes = everyAttribute();
      for (const secret of [t.config.admin.password, access_token, refresh_token, t.config.jwtSecret])
        expect(attributes).not.toContain(secret);
    });

    it('when a statement fails (a duplicate code and name), then its span names the SQLSTATE, not the values', async () => {
      const code = unique('DUP');
      await aCluster(t, { code }, { as: admin });
      exporter.reset();
      const res = await t.fetch('/api-system/clusters', {
        method: 'POST',
        token: admin,
        json: { code, name: `Group ${code}`, is_active: true },
      });
      expect(res.status).toBe(409);
      const [request] = serverSpans('createCluster');
      expect(request!.status.code).not.toBe(SpanStatusCode.ERROR);
      const failed = childrenOf(request!).filter((s) => s.status.code === SpanStatusCode.ERROR);
      expect(failed.map((s) => s.attributes['error.type'])).toContain('23505');
      expect(everyAttribute()).not.toContain(code);
    });

    it('when a request arrives inside a trace (traceparent), then its span joins that trace', async () => {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const parentId = '00f067aa0ba902b7';
      await t.fetch('/api-system/clusters?perpage=1', {
        token: admin,
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
      });
      const [request] = serverSpans('listClusters');
      expect(request!.spanContext().traceId).toBe(traceId);
      expect(request!.parentSpanContext?.spanId).toBe(parentId);
    });
  });
});
