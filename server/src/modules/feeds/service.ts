import type { Knex } from 'knex';
import type { AuthContext } from '../../core/permissions.js';
import type { components } from '../../../../openapi/generated/schema.js';
import { feedRepository, type ApprovalDocType, type ApprovalItem } from './repository.js';

export type ApprovalFeed = components['schemas']['ApprovalFeed'];

/** Always all three groups, in this order (an empty queue still shows its zero). */
const GROUP_ORDER: ApprovalDocType[] = ['pr', 'po', 'sr'];
const SUMMARY_ITEMS_PER_TYPE = 5;

export function feedService({ knex }: { knex: Knex }) {
  const repo = feedRepository({ knex });

  async function feed(userId: string, perType: number | null): Promise<ApprovalFeed> {
    const rows = await repo.queue(userId, perType);
    return {
      groups: GROUP_ORDER.map((docType) => {
        const mine = rows.filter((r) => r.doc_type === docType);
        const items: ApprovalItem[] = mine.map(({ type_count: _c, type_totals: _t, ...item }) => item);
        return { doc_type: docType, count: mine[0]?.type_count ?? 0, totals: mine[0]?.type_totals ?? [], items };
      }),
    };
  }

  return {
    /** `{pending}`: documents of the type waiting on the caller. */
    async pendingCount(auth: AuthContext, docType: ApprovalDocType): Promise<{ pending: number }> {
      return { pending: await repo.countPending(auth.userId, docType) };
    },
    /** Every document waiting on the caller, grouped pr, po, sr, newest first. */
    pending: (auth: AuthContext) => feed(auth.userId, null),
    /** The same grouping with the five newest documents of each type. */
    summary: (auth: AuthContext) => feed(auth.userId, SUMMARY_ITEMS_PER_TYPE),
  };
}

export type FeedService = ReturnType<typeof feedService>;
