import type { MembershipImportResult } from '../../types';
import type { Api } from '../api';
import type { MemberImportOptions } from './memberImportUpload';

export type { MemberImportOptions } from './memberImportUpload';

/** The membership CSV import (`importMemberships`), with a dry run and upload progress. */
export function memberImportMethods(api: Api) {
  return {
    /**
     * Uploads the CSV and answers the plan (and, unless a dry run, whether it was written). The code that sends it
     * loads on the first import, so it stays out of the console's first download.
     */
    async importMemberships(file: Blob, options: MemberImportOptions): Promise<MembershipImportResult> {
      return (await import('./memberImportUpload')).importMemberships(api, file, options);
    },
  };
}
