import { unwrap, type Outcome } from './outcome';

/**
 * Last ETag seen per record. Updates send it back as If-Match, so a save over someone else's newer
 * write is refused (412) instead of silently overwriting it.
 */
export function createEtagStore() {
  const tags = new Map<string, string>();
  const key = (resource: string, id: string) => `${resource}/${id}`;
  return {
    remember:
      (resource: string, id: string) =>
      <T>(outcome: Outcome<T>): T => {
        const data = unwrap(outcome);
        const tag = outcome.response.headers.get('ETag');
        if (tag) tags.set(key(resource, id), tag);
        return data;
      },
    ifMatch: (resource: string, id: string): { 'If-Match'?: string } => {
      const tag = tags.get(key(resource, id));
      return tag ? { 'If-Match': tag } : {};
    },
  };
}

export type EtagStore = ReturnType<typeof createEtagStore>;
