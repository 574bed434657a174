import type { ApiClient } from '../api';
import type { CsvFile, ExportOptions, ExportRequest } from './csvExport';

export type { CsvFile, ExportOptions, ExportPage, ExportProgress, ExportRequest } from './csvExport';

/** Whole-list CSV exports: the server streams the file with the list's own filters and sort. */
export function exportMethods(c: ApiClient) {
  return {
    /**
     * Downloads the list as the server writes it: one page with `options.page`, else every matching row. The code
     * that reads the stream loads on the first export, so it stays out of the console's first download.
     */
    async exportCsv(request: ExportRequest, options: ExportOptions = {}): Promise<CsvFile> {
      return (await import('./csvExport')).exportCsv(c, request, options);
    },
  };
}
