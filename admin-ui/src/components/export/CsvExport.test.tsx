import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, HttpError, testDataProvider, type DataProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import { testQueryClient } from '../../test/renderWithAdmin';
import type { ExportOptions, ExportRequest } from '../../dataProvider/methods/exports';
import { downloadBlob } from '../../lib/csv';
import { CsvExport } from './CsvExport';
import type { CsvExportProps } from './CsvExportDialog';

vi.mock('../../lib/csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/csv')>()),
  downloadBlob: vi.fn(),
}));

const request: ExportRequest = {
  resource: 'clusters',
  filter: { search: 'andaman', is_active: true },
  sort: { field: 'name', order: 'ASC' },
};
const file = { filename: 'clusters-2026-11-24.csv', blob: new Blob(['Code\r\n']) };

/** An export the test finishes by hand: it reports progress, then resolves, fails or sees its signal aborted. */
function pendingExport() {
  let finish!: (outcome: typeof file | Error) => void;
  let options!: ExportOptions;
  const exportCsv = vi.fn((_request: ExportRequest, opts: ExportOptions = {}) => {
    options = opts;
    return new Promise<typeof file>((resolve, reject) => {
      finish = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
      opts.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
  });
  return {
    exportCsv,
    finish: (o: typeof file | Error) => finish(o),
    progress: (rows: number) => options.onProgress?.({ bytes: rows * 20, rows }),
    signal: () => options.signal,
  };
}

function setup(
  exportCsv: (request: ExportRequest, options?: ExportOptions) => Promise<typeof file>,
  props: Partial<CsvExportProps> = {},
) {
  const dataProvider: DataProvider = Object.assign(testDataProvider(), { exportCsv });
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={testQueryClient()}>
      <CsvExport
        request={request}
        page={{ page: 3, perPage: 25 }}
        pageRows={25}
        total={12345}
        loading={false}
        {...props}
      />
    </AdminContext>,
  );
}

const openDialog = async () => {
  fireEvent.click(screen.getByTestId('export-csv'));
  // The dialog is a chunk of its own: the first opening waits for it.
  return screen.findByTestId('export-dialog', {}, { timeout: 5000 });
};

describe('CSV export of a list', { timeout: 20_000 }, () => {
  it('offers this page and every matching row, with their counts', async () => {
    setup(vi.fn());
    await openDialog();
    expect(screen.getByTestId('export-page')).toHaveTextContent('This page (25 rows)');
    expect(screen.getByTestId('export-all')).toHaveTextContent('All 12,345 matching rows');
  });

  it('exports this page with the list’s filter, sort and page, saves the file and closes', async () => {
    const exportCsv = vi.fn(async () => file);
    setup(exportCsv);
    await openDialog();
    fireEvent.click(screen.getByTestId('export-page'));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith('clusters-2026-11-24.csv', file.blob));
    expect(exportCsv).toHaveBeenCalledWith(request, expect.objectContaining({ page: { page: 3, perPage: 25 } }));
    await waitFor(() => expect(screen.queryByTestId('export-dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('export-csv')).toBeEnabled();
  });

  it('exports every matching row without a page', async () => {
    const exportCsv = vi.fn(async (_request: ExportRequest, _options?: ExportOptions) => file);
    setup(exportCsv);
    await openDialog();
    fireEvent.click(screen.getByTestId('export-all'));
    await waitFor(() => expect(exportCsv).toHaveBeenCalled());
    expect(exportCsv.mock.calls[0]![0]).toEqual(request);
    expect(exportCsv.mock.calls[0]![1]).toMatchObject({ page: undefined });
  });

  it('shows the rows received while it runs, with the choices and Export disabled', async () => {
    const run = pendingExport();
    setup(run.exportCsv);
    await openDialog();
    fireEvent.click(screen.getByTestId('export-all'));
    run.progress(12300);
    expect(await screen.findByTestId('export-progress')).toHaveTextContent('Exporting… 12,300 rows');
    expect(screen.getByTestId('export-page')).toBeDisabled();
    expect(screen.getByTestId('export-all')).toBeDisabled();
    expect(screen.getByTestId('export-csv')).toBeDisabled();
    run.finish(file);
    await waitFor(() => expect(screen.queryByTestId('export-dialog')).not.toBeInTheDocument());
  });

  it('says what went wrong, in the problem’s words, and lets the user try again', async () => {
    const run = pendingExport();
    setup(run.exportCsv);
    await openDialog();
    fireEvent.click(screen.getByTestId('export-all'));
    run.finish(new HttpError('Missing permission cluster.read', 403, {}));
    expect(await screen.findByTestId('export-error')).toHaveTextContent(
      'The export failed: Missing permission cluster.read',
    );
    expect(screen.getByTestId('export-all')).toBeEnabled();
  });

  it('aborts the download on Cancel and saves nothing', async () => {
    vi.mocked(downloadBlob).mockClear();
    const run = pendingExport();
    setup(run.exportCsv);
    await openDialog();
    fireEvent.click(screen.getByTestId('export-page'));
    await waitFor(() => expect(run.exportCsv).toHaveBeenCalled());
    fireEvent.click(screen.getByTestId('export-cancel'));
    expect(run.signal()?.aborted).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('export-dialog')).not.toBeInTheDocument());
    expect(screen.queryByTestId('export-error')).not.toBeInTheDocument();
    expect(downloadBlob).not.toHaveBeenCalled();
  });

  it('is disabled while the list loads', () => {
    setup(vi.fn(), { loading: true });
    expect(screen.getByTestId('export-csv')).toBeDisabled();
  });

  it('is disabled for an empty list', () => {
    setup(vi.fn(), { pageRows: 0, total: 0 });
    expect(screen.getByTestId('export-csv')).toBeDisabled();
  });
});
