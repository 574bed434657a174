// Reads the bundled contract for tests that reason about the spec itself.
import { readFileSync } from 'node:fs';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface SpecOperation {
  method: HttpMethod;
  path: string;
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; required?: boolean; example?: unknown; schema?: unknown }>;
  requestBody?: { content: Record<string, { example?: unknown; schema?: unknown }> };
  responses: Record<string, unknown>;
  'x-permission'?: string;
  'x-permission-scope'?: 'platform' | 'cluster';
}

export type Spec = {
  paths: Record<string, Partial<Record<HttpMethod, Omit<SpecOperation, 'method' | 'path'>>>>;
  components: { schemas: Record<string, unknown> };
  tags: Array<{ name: string }>;
};

export function loadBundledSpec(): Spec {
  return JSON.parse(readFileSync('openapi/generated/openapi.bundled.json', 'utf8')) as Spec;
}

/** Follows a local `$ref` (`#/components/...`) to what it points at. */
export function deref<T>(spec: Spec, value: T | { $ref: string }): T {
  if (!value || typeof value !== 'object' || !('$ref' in value)) return value;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      spec,
    );
  return deref(spec, target as T);
}

/** Every operation of the spec, with its parameters resolved. */
export function operationsOf(spec: Spec): SpecOperation[] {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => {
      const op = item[method]!;
      return { ...op, method, path, parameters: op.parameters?.map((p) => deref(spec, p)) };
    }),
  );
}
