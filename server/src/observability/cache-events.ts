/**
 * Where an in-memory cache reports a lookup's outcome. The caches are built deep inside the modules, long before
 * (and whether or not) metrics are kept: a cache only names itself and the outcome here, and whoever listens (the
 * process's metrics) counts it. Without a listener a report costs one loop over an empty set.
 */
export type CacheOutcome = 'hit' | 'miss';

type CacheListener = (cache: string, outcome: CacheOutcome) => void;

const listeners = new Set<CacheListener>();

/** Reports one lookup of `cache` (a short fixed name such as `standing` or `resolve`, never a key). */
export function cacheLookup(cache: string, outcome: CacheOutcome): void {
  for (const listener of listeners) listener(cache, outcome);
}

/** Hears every lookup reported from now on; the returned function stops it. */
export function onCacheLookup(listener: CacheListener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
