import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import type { ExportPage, ExportRequest } from '../../dataProvider/methods/exports';
import { downloadBlob } from '../../lib/csv';
import { isAbortError } from '../../lib/problems';

export type CsvExportState =
  { status: 'idle' } | { status: 'running'; rows: number } | { status: 'failed'; message: string };

/** Runs one export at a time through the data provider, with its progress, its failure and a cancel. */
export function useCsvExport(request: ExportRequest) {
  const dataProvider = useAppDataProvider();
  const [state, setState] = useState<CsvExportState>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen (or closing the dialog) stops the download rather than saving a file nobody waits for.
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    async (page: ExportPage | undefined, onDone: () => void) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setState({ status: 'running', rows: 0 });
      try {
        const file = await dataProvider.exportCsv(request, {
          page,
          signal: abort.signal,
          onProgress: ({ rows }) => setState({ status: 'running', rows }),
        });
        downloadBlob(file.filename, file.blob);
        setState({ status: 'idle' });
        onDone();
      } catch (error) {
        if (abort.signal.aborted || isAbortError(error)) return;
        // The HttpError of a refusal carries the problem's detail as its message.
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [dataProvider, request],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState({ status: 'idle' });
  }, []);

  return { state, start, cancel };
}
