import type { BulkOutcome, BulkRequests } from '../../types';
import type { ApiClient } from '../api';
import { unwrap, type Outcome } from '../outcome';

export type BulkResource = keyof BulkRequests;
export type BulkActionOf<R extends BulkResource> = BulkRequests[R]['action'];
export type BulkAction = BulkActionOf<BulkResource>;
export type { BulkOutcome, BulkRowResult } from '../../types';

/** Each list's bulk actions; the compiler holds every list to its operation's enum. */
export const BULK_ACTIONS = {
  clusters: ['deactivate', 'activate', 'delete', 'restore'],
  'business-units': ['deactivate', 'activate', 'delete', 'restore'],
  users: ['deactivate', 'reactivate'],
  'print-template-mappings': ['deactivate', 'activate', 'delete'],
} as const satisfies { [R in BulkResource]: readonly BulkActionOf<R>[] };

/** One sender per list, each typed by its own operation, so a list can only send the actions its contract offers. */
type BulkSenders = {
  [R in BulkResource]: (body: { action: BulkActionOf<R>; ids: string[] }) => Promise<Outcome<BulkOutcome>>;
};

/** Bulk calls on the rows a list has selected. */
export function bulkMethods(c: ApiClient) {
  const send: BulkSenders = {
    clusters: (body) => c.POST('/api-system/clusters/bulk', { body }),
    'business-units': (body) => c.POST('/api-system/business-units/bulk', { body }),
    users: (body) => c.POST('/api-system/users/bulk', { body }),
    'print-template-mappings': (body) => c.POST('/api-system/print-template-mappings/bulk', { body }),
  };
  return {
    /**
     * One call for every id. The answer holds a result per id, in order: a row the caller may not change fails with
     * its own problem while the others go through, so the call itself succeeds (200). The ids are one list page's
     * (at most 100), well within the contract's 500.
     */
    async bulkAction<R extends BulkResource>(
      resource: R,
      action: BulkActionOf<R>,
      ids: string[],
    ): Promise<BulkOutcome> {
      return unwrap(await send[resource]({ action, ids }));
    },
  };
}
