import { operations } from '../../../http/handler.js';
import type { MembershipImportService } from './service.js';

/** The membership import: one CSV file, planned as a dry run or applied. */
export function membershipImportRoutes({ imports }: { imports: MembershipImportService }) {
  return operations({
    importMemberships: async ({ auth, query, req }) => ({
      status: 200,
      body: await imports.importMemberships(auth, req.upload, query),
    }),
  });
}
