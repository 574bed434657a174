import type { ChangeFeed } from '../../db/changes.js';
import { cacheLookup } from '../../observability/cache-events.js';
import { permission } from './permission.js';
import type { MappingRecord, MappingRepository } from './repository.js';

/**
 * What a resolve answer is made of: the mappings themselves, their templates' names, their actors' names (users) and
 * the business unit codes that exist. A change to any of them drops the whole cache; they change rarely.
 */
const SOURCES = new Set(['print_template_mappings', 'report_templates', 'business_units', 'users']);

/**
 * Resolve answered from memory (every printed document asks it). Per document type it keeps the live, active
 * mappings of the type in resolve's rank order, loaded with one query on the first resolve of the type; the answer
 * is the first of them the business unit may use, by the statement's own rule (`permission`).
 *
 * It trusts what it keeps only while the change feed is live: otherwise a write on another replica could go unheard,
 * so every resolve reads through with the single statement.
 */
/** Kept records are shared by every later answer: frozen once (with their code lists), so no answer can change one. */
function frozen(candidates: MappingRecord[]): MappingRecord[] {
  for (const mapping of candidates) {
    for (const value of Object.values(mapping)) if (Array.isArray(value)) Object.freeze(value);
    Object.freeze(mapping);
  }
  return candidates;
}

export function resolveCache({ repo, changes }: { repo: MappingRepository; changes: ChangeFeed }) {
  const byType = new Map<string, MappingRecord[]>();
  /** Loads under way, so concurrent first resolves of a type share one query. */
  const loading = new Map<string, Promise<MappingRecord[]>>();
  /** Counts flushes: a load that a flush overtook may hold what the flush was about, so it is not kept. */
  let generation = 0;

  const flush = () => {
    generation += 1;
    byType.clear();
    loading.clear();
  };
  changes.subscribe({
    onChange: (change) => {
      if (SOURCES.has(change.table)) flush();
    },
    onReset: flush,
  });

  function candidatesOf(documentType: string): Promise<MappingRecord[]> {
    const kept = byType.get(documentType);
    if (kept) {
      cacheLookup('resolve', 'hit');
      return Promise.resolve(kept);
    }
    cacheLookup('resolve', 'miss');
    const pending = loading.get(documentType);
    if (pending) return pending;
    const startedAt = generation;
    const load = repo.candidates(documentType, { activeOnly: true }).then((candidates) => {
      // A type without mappings is not kept: any caller may ask for any text, and the cache must stay as small as the
      // mappings are (such a resolve is a 404 that asks the database).
      if (startedAt === generation && candidates.length > 0) byType.set(documentType, frozen(candidates));
      return candidates;
    });
    loading.set(documentType, load);
    const done = () => {
      if (loading.get(documentType) === load) loading.delete(documentType);
    };
    load.then(done, done);
    return load;
  }

  return {
    /** The mapping that prints `documentType` for `buCode`, as the resolve statement would answer it. */
    async resolve(documentType: string, buCode: string | null): Promise<MappingRecord | undefined> {
      if (!changes.live) return repo.resolve(documentType, buCode);
      const winner = (await candidatesOf(documentType)).find((m) => permission(m, buCode).ok);
      // The answer's own fields may be changed on the way out (response validation in development); the kept record
      // is frozen, so each answer is a shallow copy of it, not a deep one.
      return winner && { ...winner };
    },
  };
}
