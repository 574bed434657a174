// The examples of the contract as a reader of the docs or a user of the Prism mock meets them: an operation's own
// media-type example when it has one, else the example built from its schema's property examples (as Redoc and
// Prism build it). Used by examples.test.ts.
import { HTTP_METHODS, deref, type Spec } from '../support/spec.js';

type Schema = {
  $ref?: string;
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

/** The example a schema shows: its own `example`, else one made of its parts' examples. */
export function exampleFromSchema(spec: Spec, schema: Schema | undefined, depth = 0): unknown {
  const s = deref(spec, schema as Schema);
  if (!s || depth > 20) return null;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => exampleFromSchema(spec, part, depth + 1)));
  if (s.oneOf || s.anyOf) return exampleFromSchema(spec, (s.oneOf ?? s.anyOf)![0], depth + 1);
  if (s.enum) return s.enum[0];
  if (s.type === 'object' || s.properties) {
    return Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([k, v]) => [k, exampleFromSchema(spec, v, depth + 1)]),
    );
  }
  if (s.type === 'array') return [exampleFromSchema(spec, s.items, depth + 1)];
  return null;
}

export interface ShownExample {
  operationId: string;
  method: string;
  path: string;
  /** `request`, or the response status. */
  where: string;
  mediaType: string;
  /** `example`, `examples/<name>`, or `schema` when built from the schema. */
  source: string;
  value: unknown;
  /** JSON pointer of the schema the value must satisfy. */
  schemaPointer: string;
}

const pointer = (...segments: string[]) =>
  '#/' + segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

type MediaType = { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown; $ref?: string }> };

function shownOf(
  spec: Spec,
  base: Omit<ShownExample, 'source' | 'value' | 'schemaPointer' | 'mediaType'>,
  content: Record<string, MediaType>,
  at: string[],
): ShownExample[] {
  return Object.entries(content).flatMap(([mediaType, media]) => {
    const schemaPointer = pointer(...at, 'content', mediaType, 'schema');
    const common = { ...base, mediaType, schemaPointer };
    if (media.example !== undefined) return [{ ...common, source: 'example', value: media.example }];
    if (media.examples) {
      return Object.entries(media.examples).map(([name, ex]) => ({
        ...common,
        source: `examples/${name}`,
        value: deref(spec, ex as { value?: unknown }).value,
      }));
    }
    return [{ ...common, source: 'schema', value: exampleFromSchema(spec, media.schema) }];
  });
}

/** Every JSON example of every request body and response of the contract. */
export function shownExamples(spec: Spec): ShownExample[] {
  const out: ShownExample[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as
        | {
            operationId?: string;
            requestBody?: { content?: Record<string, MediaType> };
            responses?: Record<string, { $ref?: string; content?: Record<string, MediaType> }>;
          }
        | undefined;
      if (!op?.operationId) continue;
      const base = { operationId: op.operationId, method, path };
      const json = (content: Record<string, MediaType> | undefined) =>
        Object.fromEntries(Object.entries(content ?? {}).filter(([type]) => /json/.test(type)));
      out.push(
        ...shownOf(spec, { ...base, where: 'request' }, json(op.requestBody?.content), [
          'paths',
          path,
          method,
          'requestBody',
        ]),
      );
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        // A shared response ($ref) is checked where it is defined: its schema pointer is there.
        const at = response.$ref
          ? response.$ref
              .replace(/^#\//, '')
              .split('/')
              .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
          : ['paths', path, method, 'responses', status];
        out.push(...shownOf(spec, { ...base, where: status }, json(deref(spec, response).content), at));
      }
    }
  }
  return out;
}

/** Calls `visit` on every object inside a value (the value itself included). */
export function eachObject(value: unknown, visit: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((v) => eachObject(v, visit));
  else if (value && typeof value === 'object') {
    visit(value as Record<string, unknown>);
    Object.values(value).forEach((v) => eachObject(v, visit));
  }
}
