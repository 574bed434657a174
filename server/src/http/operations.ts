import type { RequestHandler } from 'express';
import type { OperationId } from '../core/contract.js';
import type { AccessRule, PermissionKey } from '../core/permissions.js';
import type { ApiSpec } from './spec.js';

/** One operation of the contract, as the request pipeline needs it. */
export interface Operation {
  id: OperationId;
  method: string;
  /** The contract's path template, e.g. `/api-system/clusters/{id}`. */
  path: string;
  access: AccessRule;
  /**
   * What its multipart body uploads: an image (logos, avatars), or a CSV file (the membership import), by the
   * contract's `encoding.<field>.contentType`; null when it takes no multipart body.
   */
  upload: 'image' | 'csv' | null;
  /** Answers while the caller must still change an initial or reset password (`x-password-change-exempt`). */
  passwordChangeExempt: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The contract operation this request addresses, when it addresses one. */
      operation?: Operation;
    }
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface SpecOperation {
  operationId?: string;
  security?: unknown[];
  'x-permission'?: string;
  'x-permission-scope'?: string;
  'x-password-change-exempt'?: boolean;
  requestBody?: { content?: Record<string, { encoding?: Record<string, { contentType?: string }> } | undefined> };
}

function uploadOf(op: SpecOperation): Operation['upload'] {
  const multipart = op.requestBody?.content?.['multipart/form-data'];
  if (!multipart) return null;
  const types = Object.values(multipart.encoding ?? {}).map((e) => e.contentType ?? '');
  return types.some((t) => t.includes('text/csv')) ? 'csv' : 'image';
}

function accessOf(where: string, op: SpecOperation): AccessRule {
  if (Array.isArray(op.security) && op.security.length === 0) return { kind: 'public' };
  const key = op['x-permission'];
  if (key === 'signed-in') return { kind: 'signed-in' };
  const scope = op['x-permission-scope'];
  if (!key || (scope !== 'platform' && scope !== 'cluster')) {
    // An operation that says nothing about access would be open to every caller: refuse to start instead.
    throw new Error(
      `${where}: declare x-permission (a key with x-permission-scope platform|cluster, or signed-in) or security: []`,
    );
  }
  return { kind: 'key', key: key as PermissionKey, scope };
}

/** Every operation of the contract, with literal path segments ahead of parameters so `/resolve` beats `/{id}`. */
export function operationsOf(spec: ApiSpec): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, SpecOperation | undefined>)[method];
      if (!op?.operationId) continue;
      out.push({
        id: op.operationId as OperationId,
        method: method.toUpperCase(),
        path,
        access: accessOf(`${method.toUpperCase()} ${path}`, op),
        upload: uploadOf(op),
        passwordChangeExempt: op['x-password-change-exempt'] === true,
      });
    }
  }
  return out;
}

interface CompiledPath {
  pattern: RegExp;
  literalScore: number;
  byMethod: Map<string, Operation>;
  /** Every operation on the path is public, so a wrong method there gets 405, not 401. */
  isPublic: boolean;
}

function compile(operations: Operation[]): CompiledPath[] {
  const byPath = new Map<string, CompiledPath>();
  for (const op of operations) {
    let entry = byPath.get(op.path);
    if (!entry) {
      const source = op.path
        .split(/\{[^}]+\}/)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      entry = {
        pattern: new RegExp(`^${source}/?$`),
        literalScore: -(op.path.match(/\{/g)?.length ?? 0),
        byMethod: new Map(),
        isPublic: true,
      };
      byPath.set(op.path, entry);
    }
    entry.byMethod.set(op.method, op);
    entry.isPublic &&= op.access.kind === 'public';
  }
  return [...byPath.values()].sort((a, b) => b.literalScore - a.literalScore);
}

/**
 * Finds the operation a request addresses and sets `req.operation`. The access middlewares read it, so what a route
 * requires is declared once, in the contract. HEAD is matched as GET (RFC 9110).
 */
export function identifyOperation(operations: Operation[]): RequestHandler {
  const paths = compile(operations);
  return (req, res, next) => {
    const path = req.originalUrl.split('?')[0]!;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    for (const entry of paths) {
      if (!entry.pattern.test(path)) continue;
      req.operation = entry.byMethod.get(method);
      res.locals.publicPath = entry.isPublic;
      break;
    }
    next();
  };
}
