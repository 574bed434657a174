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
  /**
   * Manages accounts, tokens or sessions (`x-api-token-refused`): an API token never reaches it, whatever the
   * service account holds, so a leaked token can neither mint another one nor widen itself.
   */
  apiTokenRefused: boolean;
  /** Answers while the caller must still set up a second factor (`x-second-factor-enrolment-exempt`). */
  secondFactorEnrolmentExempt: boolean;
  /** Needs a second factor used in the caller's session within the last 10 minutes (`x-step-up`). */
  stepUp: boolean;
}

/**
 * The contract path a request matched, in the shape the request validator takes it (`req.contractRoute`, read by the
 * patched route lookup of express-openapi-validator, docs/adr/0018-one-operation-match.md): the validator checks the
 * request against the operation the pipeline dispatches to, instead of matching the path a second time on its own.
 */
export interface ContractRoute {
  /** The path this match was made for (the request URL without its query); a match for another path is ignored. */
  requestPath: string;
  /** The contract's path template, e.g. `/api-system/clusters/{id}`. */
  openApiRoute: string;
  /** The same template in express's form, e.g. `/api-system/clusters/:id`, as the validator keys its routes. */
  expressRoute: string;
  /** The path parameters by name, percent-decoded as the validator decodes them (`decodeURIComponent`). */
  pathParams: Record<string, string>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The contract operation this request addresses, when it addresses one. */
      operation?: Operation;
      /**
       * The contract path the request matched, whichever its method; absent when it matched none, or when a path
       * parameter is not valid percent-encoding (the validator's own lookup then answers, with its 400).
       */
      contractRoute?: ContractRoute;
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
  'x-api-token-refused'?: boolean;
  'x-second-factor-enrolment-exempt'?: boolean;
  'x-step-up'?: boolean;
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
        apiTokenRefused: op['x-api-token-refused'] === true,
        secondFactorEnrolmentExempt: op['x-second-factor-enrolment-exempt'] === true,
        stepUp: op['x-step-up'] === true,
      });
    }
  }
  return out;
}

interface CompiledPath {
  /** The contract's path template: `/api-system/clusters/{id}`. */
  template: string;
  /** The template in express's form: `/api-system/clusters/:id`. */
  expressRoute: string;
  /** One capture group per path parameter, in `paramNames` order. */
  pattern: RegExp;
  paramNames: string[];
  literalScore: number;
  byMethod: Map<string, Operation>;
  /** Every operation on the path is public, so a wrong method there gets 405, not 401. */
  isPublic: boolean;
}

const PARAMETER = /\{([^}]+)\}/g;

function compile(operations: Operation[]): CompiledPath[] {
  const byPath = new Map<string, CompiledPath>();
  for (const op of operations) {
    let entry = byPath.get(op.path);
    if (!entry) {
      // A parameter is one non-empty segment, and one trailing slash is allowed: what the validator's path-to-regexp
      // patterns accept (its `[^\/]+` and `(?:\/$)?`), so both agree on the path of a request.
      const source = op.path
        .split(PARAMETER)
        .map((part, i) => (i % 2 === 1 ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      const paramNames = [...op.path.matchAll(PARAMETER)].map((m) => m[1]!);
      entry = {
        template: op.path,
        expressRoute: op.path.replace(PARAMETER, ':$1'),
        pattern: new RegExp(`^${source}/?$`),
        paramNames,
        literalScore: -paramNames.length,
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

/** The matched path's parameters, decoded; null when one is not valid percent-encoding (`%E0%A4%A`). */
function decodedParams(entry: CompiledPath, match: RegExpExecArray): Record<string, string> | null {
  const params: Record<string, string> = {};
  try {
    for (let i = 0; i < entry.paramNames.length; i++) params[entry.paramNames[i]!] = decodeURIComponent(match[i + 1]!);
  } catch {
    return null;
  }
  return params;
}

/**
 * Finds the operation a request addresses and sets `req.operation`. The access middlewares read it, so what a route
 * requires is declared once, in the contract. HEAD is matched as GET (RFC 9110). It also sets `req.contractRoute`,
 * the match the request validator checks the request against, so the request is matched to the contract once.
 */
export function identifyOperation(operations: Operation[]): RequestHandler {
  const paths = compile(operations);
  return (req, res, next) => {
    const path = req.originalUrl.split('?')[0]!;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    for (const entry of paths) {
      const match = entry.pattern.exec(path);
      if (!match) continue;
      req.operation = entry.byMethod.get(method);
      res.locals.publicPath = entry.isPublic;
      const pathParams = decodedParams(entry, match);
      if (pathParams)
        req.contractRoute = {
          requestPath: path,
          openApiRoute: entry.template,
          expressRoute: entry.expressRoute,
          pathParams,
        };
      break;
    }
    next();
  };
}
