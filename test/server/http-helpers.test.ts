// The HTTP layer's helpers, called directly: list queries, If-Match, how database errors become problems, and what
// the request log leaves out.
import { describe, expect, it } from 'vitest';

describe('http helpers', () => {
  it('when list queries are parsed, then defaults, bounds, -1 and the sort whitelist apply', async () => {
    const { parseListQuery, paginateInfo } = await import('../../server/src/core/list-query.js');
    const sortable = { code: 'clusters.code', created_at: 'clusters.created_at' };
    expect(parseListQuery({}, { sortable })).toMatchObject({
      page: 1,
      perpage: 10,
      limit: 10,
      offset: 0,
      sort: [{ column: 'clusters.created_at', direction: 'desc' }],
    });
    expect(parseListQuery({ page: 3, perpage: 20, sort: 'code:asc,created_at:desc' }, { sortable })).toMatchObject({
      offset: 40,
      limit: 20,
      sort: [{ field: 'code' }, { field: 'created_at' }],
    });
    expect(parseListQuery({ perpage: -1 }, { sortable })).toMatchObject({ perpage: -1, limit: undefined, page: 1 });
    expect(() => parseListQuery({ sort: 'password:asc' }, { sortable })).toThrow(/unknown sort/);
    expect(() => parseListQuery({ sort: 'code:sideways' }, { sortable })).toThrow(/unknown sort/);
    expect(paginateInfo(0, { page: 1, perpage: 10 })).toEqual({ total: 0, page: 1, perpage: 10, pages: 1 });
    expect(paginateInfo(21, { page: 2, perpage: 10 })).toEqual({ total: 21, page: 2, perpage: 10, pages: 3 });
    expect(paginateInfo(21, { page: 1, perpage: -1 })).toEqual({ total: 21, page: 1, perpage: -1, pages: 1 });
  });

  it('when If-Match is absent, matching or stale, then the write proceeds, proceeds or fails with 412', async () => {
    const { ifMatch, etagOf } = await import('../../server/src/core/etag.js');
    const { PreconditionFailedError } = await import('../../server/src/core/errors.js');
    const row = { id: 'a0000000-0000-4000-8000-000000000000', updated_at: new Date('2026-01-01T00:00:00Z') };
    expect(etagOf(row)).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(() => ifMatch(undefined)(row)).not.toThrow();
    expect(() => ifMatch(etagOf(row))(row)).not.toThrow();
    expect(() => ifMatch('*')(row)).not.toThrow();
    const newer = { ...row, updated_at: new Date('2026-01-01T00:00:01Z') };
    // A failed precondition, which the web layer answers with 412.
    expect(() => ifMatch(etagOf(row))(newer)).toThrow(PreconditionFailedError);
  });

  it('when database errors reach the renderer, then unique → 409 and malformed values → 400, anything unknown → 500', async () => {
    const { mapError } = await import('../../server/src/http/problem.js');
    expect(mapError({ code: '23505', message: 'duplicate key' }).status).toBe(409);
    expect(mapError({ code: '22P02', message: 'invalid input syntax for type uuid' }).status).toBe(400);
    expect(mapError(new Error('boom'))).toEqual({ status: 500, detail: 'An unexpected error occurred' });
  });

  it('when a request with credentials is logged, then the password, tokens and Authorization header are redacted', async () => {
    const { pino } = await import('pino');
    const { REDACT_PATHS } = await import('../../server/src/http/logging.js');
    const lines: string[] = [];
    const log = pino(
      { redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
      { write: (l: string) => void lines.push(l) },
    );
    log.info(
      {
        req: { headers: { authorization: 'Bearer abc.def.ghi' } },
        body: { username: 'admin', password: 'admin123', refresh_token: 'rt-secret' },
      },
      'x',
    );
    log.info({ access_token: 'at-secret' }, 'y');
    const out = lines.join('');
    for (const secret of ['abc.def.ghi', 'admin123', 'rt-secret', 'at-secret']) expect(out).not.toContain(secret);
    expect(out).toContain('admin');
  });
});
