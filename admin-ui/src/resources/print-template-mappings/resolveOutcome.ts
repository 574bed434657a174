import type { PrintTemplateMapping, Problem, ResolveCandidate, ResolveQuery } from '../../types';

export type ResolveOutcome =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'found'; mapping: PrintTemplateMapping; candidates: ResolveCandidate[] }
  | { status: 'none'; candidates: ResolveCandidate[]; message: string }
  | { status: 'error'; message: string };

/** What resolve answered, in the panel's terms: the winner with its explanation, or no winner with the candidates. */
export async function runResolve(
  resolve: (q: ResolveQuery) => Promise<PrintTemplateMapping>,
  documentType: string,
  buCode: string,
): Promise<ResolveOutcome> {
  const query = { document_type: documentType, explain: true, ...(buCode.trim() ? { bu_code: buCode.trim() } : {}) };
  try {
    const mapping = await resolve(query);
    return { status: 'found', mapping, candidates: mapping.explanation ?? [] };
  } catch (e) {
    const error = e as { status?: number; message?: string; body?: Partial<Problem> };
    if (error?.status === 404) {
      return {
        status: 'none',
        candidates: error.body?.candidates ?? [],
        message: error.body?.detail ?? error.message ?? '',
      };
    }
    return { status: 'error', message: error?.body?.detail ?? error?.message ?? '' };
  }
}
