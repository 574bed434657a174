// Domain errors say what went wrong; the web layer alone decides how it is answered. Every kind of domain error has
// its status in one table, the response fields come from the error's data, and core/ names no status or header.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '../../server/src/core/errors.js';
import { DOMAIN_STATUS, headersOf, statusOf } from '../../server/src/http/errors.js';
import { mapError } from '../../server/src/http/problem.js';

const { DomainError } = core;

/** Every class core/errors.ts exports that is a domain error (the abstract base aside). */
const domainErrorClasses = Object.entries(core).filter(
  ([, value]) =>
    typeof value === 'function' && Object.prototype.isPrototypeOf.call(DomainError.prototype, value.prototype),
);

describe('domain errors and their statuses', () => {
  it('when core/errors.ts exports a domain error class, then the mapping table gives it a status', () => {
    expect(domainErrorClasses.length).toBeGreaterThanOrEqual(13);
    const unmapped = domainErrorClasses.filter(([, cls]) => !DOMAIN_STATUS.has(cls as never)).map(([name]) => name);
    expect(unmapped).toEqual([]);
    for (const [name, cls] of domainErrorClasses) {
      const status = DOMAIN_STATUS.get(cls as never);
      expect(status, name).toBeGreaterThanOrEqual(400);
      expect(status, name).toBeLessThan(500);
    }
  });

  it('when a domain error is mapped, then its status, type and response fields are the ones clients rely on', () => {
    expect(mapError(new core.BadRequestError('no', [{ path: '/body/x', message: 'is required' }]))).toEqual({
      status: 400,
      type: undefined,
      detail: 'no',
      errors: [{ path: '/body/x', message: 'is required' }],
      headers: undefined,
      extensions: undefined,
    });
    for (const err of [new core.UnauthorizedError(), new core.AccountDeactivatedError(), new core.SessionEndedError()])
      expect(mapError(err)).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
    expect(mapError(new core.SessionEndedError()).type).toBe('https://platform-admin.dev/problems/session-ended');
    expect(mapError(new core.PasswordChangeRequiredError())).toMatchObject({
      status: 403,
      type: 'https://platform-admin.dev/problems/password-change-required',
      headers: undefined,
    });
    expect(mapError(new core.NotFoundError('gone', { candidates: [] }))).toMatchObject({
      status: 404,
      extensions: { candidates: [] },
    });
    expect(statusOf(new core.PreconditionFailedError())).toBe(412);
  });

  it('when a too-many error carries its quota, then Retry-After and the RateLimit fields are derived from it', () => {
    const err = new core.TooManyRequestsError('slow down', 2.2, { limit: 5, windowSeconds: 60 });
    expect(err.retryAfterSeconds).toBe(3);
    expect(mapError(err)).toMatchObject({
      status: 429,
      headers: { 'Retry-After': '3', RateLimit: 'limit=5, remaining=0, reset=3', 'RateLimit-Policy': '5;w=60' },
    });
    // Without a quota, only the retry time.
    expect(headersOf(new core.TooManyRequestsError('busy', 0))).toEqual({ 'Retry-After': '1' });
  });

  it('when a module defines its own kind of a domain error, then it answers as its nearest mapped ancestor', () => {
    class NoSuchMapping extends core.NotFoundError {}
    class Unmapped extends DomainError {}
    expect(statusOf(new NoSuchMapping('none'))).toBe(404);
    // Nobody said how to answer it: a server fault, never a guess.
    expect(statusOf(new Unmapped('?'))).toBe(500);
  });

  it('when core/errors.ts is read, then it names no HTTP status and no response header', () => {
    const source = readFileSync(new URL('../../server/src/core/errors.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/\b[45]\d\d\b/);
    expect(source).not.toMatch(/STATUS_CODES|node:http/);
    expect(source).not.toMatch(/WWW-Authenticate|Retry-After|RateLimit|\bheaders?\b/i);
  });
});
