import { lazy, Suspense, useState } from 'react';
import type { CsvExportProps } from './CsvExportDialog';
import { ExportButton } from '../list/ListToolbar';

// The dialog loads on the first Export, so it adds nothing to the first download.
const CsvExportDialog = lazy(() => import('./CsvExportDialog'));

/**
 * Export of a list: asks for this page or every matching row, then the server writes the file. Disabled while the
 * list loads, when it is empty, and while an export runs.
 */
export const CsvExport = (props: CsvExportProps) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ExportButton disabled={open || props.loading || props.pageRows === 0} onClick={() => setOpen(true)} />
      {open && (
        <Suspense fallback={null}>
          <CsvExportDialog {...props} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
};
