import type { Schemas } from '../../core/contract.js';
import type { MappingRecord } from './repository.js';

export type Candidate = Schemas['ResolveCandidate'];
type Outcome = Candidate['outcome'];

/** Whether a list holds the code, compared regardless of case (codes are typed by hand on both sides). */
const holds = (list: readonly string[], code: string) => list.some((c) => c.toLowerCase() === code.toLowerCase());

/**
 * Mirrors the rule of the resolve statement for one candidate (deny wins; an empty allow list means all BUs; without
 * a BU only candidates with no allow list qualify; codes compare regardless of case). Explain judges every candidate by it, and the resolve cache picks
 * its answer by it, so both agree with the statement.
 */
export function permission(
  m: MappingRecord,
  buCode: string | null,
): { ok: true } | { ok: false; outcome: Outcome; reason: string } {
  if (!m.is_active) return { ok: false, outcome: 'inactive', reason: 'Inactive: resolve skips switched-off mappings' };
  const deny = m.deny_business_unit ?? [];
  if (buCode !== null && holds(deny, buCode))
    return {
      ok: false,
      outcome: 'denied',
      reason: `Business unit ${buCode} is in the deny list (deny wins over allow)`,
    };
  const allow = m.allow_business_unit ?? [];
  if (allow.length > 0 && (buCode === null || !holds(allow, buCode))) {
    const reason =
      buCode === null
        ? `The allow list (${allow.join(', ')}) restricts it and no business unit was given`
        : `Business unit ${buCode} is not in the allow list (${allow.join(', ')})`;
    return { ok: false, outcome: 'not_in_allow_list', reason };
  }
  return { ok: true };
}
