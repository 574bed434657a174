import type { Request } from 'express';
import type { Schemas } from '../core/contract.js';
import type { AuthContext } from '../core/permissions.js';
import { problemOf } from './problem.js';

type BulkRowResult = Schemas['BulkRowResult'];

/** What each action does to one row: the single-row operation, which checks the caller's access and writes in its own transaction. */
export type BulkActions<A extends string> = Record<A, (id: string) => Promise<unknown>>;

/**
 * Runs the requested action on each id, in the request's order, and answers one result per id. A row that throws
 * fails alone, with the problem its single-row operation would have sent; the rows before it stay done. Rows go one
 * at a time, so a request never holds more than one row's locks (two bulk requests naming the same rows in a
 * different order cannot deadlock) and every row sees the writes of the rows before it (licence counts, the last
 * super admin).
 */
export async function runBulk<A extends string>(
  req: Request,
  body: { action: A; ids: string[] },
  actions: BulkActions<A>,
) {
  const act = actions[body.action];
  const results: BulkRowResult[] = [];
  for (const id of body.ids) {
    try {
      await act(id);
      results.push({ id, ok: true, status: 200 });
    } catch (err) {
      const problem = problemOf(req, err) as Schemas['Problem'];
      results.push({ id, ok: false, status: problem.status, problem });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return {
    status: 200 as const,
    body: { action: body.action, succeeded, failed: results.length - succeeded, results },
  };
}

/** The single-row writes that clusters and business units both offer, under the same names. */
interface Lifecycle {
  setActive(auth: AuthContext, id: string, isActive: boolean): Promise<unknown>;
  remove(auth: AuthContext, id: string): Promise<unknown>;
  restore(auth: AuthContext, id: string): Promise<unknown>;
}

/** The bulk actions of a resource with an active switch and soft delete. */
export function lifecycleActions(
  service: Lifecycle,
  auth: AuthContext,
): BulkActions<Schemas['LifecycleBulkRequest']['action']> {
  return {
    deactivate: (id) => service.setActive(auth, id, false),
    activate: (id) => service.setActive(auth, id, true),
    delete: (id) => service.remove(auth, id),
    restore: (id) => service.restore(auth, id),
  };
}
