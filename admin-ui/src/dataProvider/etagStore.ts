import { unwrap, type Outcome } from './outcome';

/** The version a record read names: its `updated_at`, which the server's ETag is made of. */
const versionOf = (record: unknown): string | undefined => {
  const at = (record as { updated_at?: unknown } | null | undefined)?.updated_at;
  return typeof at === 'string' ? at : undefined;
};

/**
 * The ETag of every version of a record read, and the last one seen. A write sends back the ETag of the version it
 * edits (react-admin's `previousData`) as If-Match, so a save over someone else's newer write is refused (412)
 * instead of silently overwriting it, even when a refetch in between brought their version into the cache.
 */
export function createEtagStore() {
  const tags = new Map<string, string>();
  const key = (resource: string, id: string, version = '') => `${resource}/${id}@${version}`;
  return {
    remember:
      (resource: string, id: string) =>
      <T>(outcome: Outcome<T>): T => {
        const data = unwrap(outcome);
        const tag = outcome.response.headers.get('ETag');
        if (tag) {
          tags.set(key(resource, id), tag);
          const version = versionOf(data);
          if (version) tags.set(key(resource, id, version), tag);
        }
        return data;
      },
    /** The If-Match of a write to `id`: the edited version's own ETag when it was read, else the last one seen. */
    ifMatch: (resource: string, id: string, edited?: unknown): { 'If-Match'?: string } => {
      const version = versionOf(edited);
      const tag = (version && tags.get(key(resource, id, version))) || tags.get(key(resource, id));
      return tag ? { 'If-Match': tag } : {};
    },
  };
}

export type EtagStore = ReturnType<typeof createEtagStore>;
