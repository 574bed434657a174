import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import type { MembershipImportResult, MembershipImportRow } from '../types';
import { downloadText } from '../lib/csv';
import { SUPER, renderRoutes } from '../resources/users/testing';
import { MemberImport } from './MemberImportPage';
import { resultCsv } from './importFile';

vi.mock('../lib/csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/csv')>()),
  downloadText: vi.fn(),
}));

const row = (line: number, extra: Partial<MembershipImportRow> = {}): MembershipImportRow => ({
  line,
  user: `user${line}@example.com`,
  business_unit: 'A-PKT',
  cluster: null,
  role: 'user',
  active: true,
  outcome: 'added',
  reason: null,
  detail: `Joins A-PKT as user`,
  ...extra,
});

const resultOf = (rows: MembershipImportRow[], extra: Partial<MembershipImportResult> = {}): MembershipImportResult => {
  const count = (o: MembershipImportRow['outcome']) => rows.filter((r) => r.outcome === o).length;
  return {
    import_id: '5f0c2b7e-8d1a-4c3e-9b6f-2a4d8e0c1b3a',
    dry_run: true,
    mode: 'all_or_nothing',
    applied: false,
    summary: {
      total: rows.length,
      added: count('added'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      refused: count('refused'),
    },
    rows,
    ...extra,
  };
};

const refusedRow = row(4, {
  user: 'nobody',
  outcome: 'refused',
  reason: 'unknown_user',
  detail: "No user has the username or email 'nobody'",
});
const mixedRows = [
  row(2),
  row(3, { outcome: 'updated', role: 'admin', detail: 'Becomes admin' }),
  refusedRow,
  row(5, { outcome: 'unchanged' }),
];

function setup(
  importMemberships: (file: Blob, options: { dryRun: boolean; mode: string }) => Promise<MembershipImportResult>,
) {
  const spy = vi.fn(importMemberships);
  renderRoutes('/memberships/import', SUPER, { importMemberships: spy }, [
    { path: '/memberships/import', element: <MemberImport /> },
    { path: '/audit-log', element: <p>audit log</p> },
  ]);
  return spy;
}

const csvFile = (name = 'members.csv', text = 'user,business_unit\nsomchai,A-PKT\n') =>
  new File([text], name, { type: 'text/csv' });

async function chooseAndCheck(file = csvFile()) {
  fireEvent.change(await screen.findByTestId('import-file-input'), { target: { files: [file] } });
  fireEvent.click(screen.getByTestId('import-check'));
}

const shownLines = () => screen.getAllByTestId('import-row').map((r) => within(r).getAllByRole('cell')[0]!.textContent);

beforeEach(() => {
  localStorage.clear();
  vi.mocked(downloadText).mockClear();
});

describe('the membership import', () => {
  it('with no file chosen, says so and offers no check', async () => {
    setup(async () => resultOf([]));
    expect(await screen.findByTestId('import-file-name')).toHaveTextContent('No file chosen yet');
    expect(screen.getByTestId('import-check')).toBeDisabled();
  });

  it("shows an example naming the demo's business units and clusters, a cluster row before its unit's row", async () => {
    setup(async () => resultOf([]));
    const example = (await screen.findByTestId('import-example')).textContent ?? '';
    expect(example.split('\n')).toEqual([
      'user,business_unit,cluster,role,active',
      'somchai@example.com,A-PKT,,admin,true',
      'anan@example.com,A-KBI,,,',
      'pim@example.com,,CL-B,user,true',
      'pim@example.com,B-SKV,,user,true',
    ]);
  });

  it('checks the file as a dry run, and each summary count filters the preview by its outcome', async () => {
    const spy = setup(async () => resultOf(mixedRows));
    await chooseAndCheck();
    await screen.findByTestId('import-plan');
    expect(spy).toHaveBeenCalledWith(
      expect.any(File),
      expect.objectContaining({ dryRun: true, mode: 'all_or_nothing' }),
    );
    expect(shownLines()).toEqual(['2', '3', '4', '5']);
    expect(screen.getByTestId('summary-refused')).toHaveTextContent('1 refused');

    fireEvent.click(screen.getByTestId('summary-refused'));
    expect(shownLines()).toEqual(['4']);
    expect(screen.getByTestId('import-row')).toHaveTextContent('Unknown user');
    fireEvent.click(screen.getByTestId('summary-updated'));
    expect(shownLines()).toEqual(['3']);
    fireEvent.click(screen.getByTestId('summary-updated'));
    expect(shownLines()).toEqual(['2', '3', '4', '5']);
  });

  it('shows a large plan one page of 50 rows at a time', async () => {
    setup(async () => resultOf(Array.from({ length: 10_000 }, (_, i) => row(i + 2))));
    await chooseAndCheck();
    await screen.findByTestId('import-plan');
    expect(screen.getAllByTestId('import-row')).toHaveLength(50);
    expect(screen.getByTestId('import-pagination')).toHaveTextContent('1–50 of 10000');
  });

  it('offers "Apply valid rows" only when some rows are refused, and applies them after a confirmation naming the changes', async () => {
    const spy = setup(async (_file, options) =>
      options.dryRun ? resultOf(mixedRows) : resultOf(mixedRows, { dry_run: false, mode: 'valid_rows', applied: true }),
    );
    await chooseAndCheck();
    const apply = await screen.findByTestId('import-apply');
    expect(apply).toHaveTextContent('Apply valid rows');
    expect(screen.getByTestId('import-refused-explained')).toHaveTextContent(
      'applying all or nothing would write nothing',
    );
    fireEvent.click(apply);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('2 memberships will change; the refused rows are skipped.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply valid rows' }));
    expect(await screen.findByTestId('import-applied')).toHaveTextContent(
      'The import was applied: 2 memberships changed.',
    );
    expect(spy).toHaveBeenLastCalledWith(
      expect.any(File),
      expect.objectContaining({ dryRun: false, mode: 'valid_rows' }),
    );
    expect(screen.getByTestId('import-audit-link')).toHaveAttribute(
      'href',
      // The import's filter in the form the audit log keeps its filters: `filter={"import_id":"…"}`.
      '/audit-log?filter=%7B%22import_id%22%3A%225f0c2b7e-8d1a-4c3e-9b6f-2a4d8e0c1b3a%22%7D',
    );
  });

  it('offers a single "Apply" (all or nothing) when no row is refused', async () => {
    const clean = mixedRows.filter((r) => r.outcome !== 'refused');
    const spy = setup(async (_file, options) =>
      options.dryRun ? resultOf(clean) : resultOf(clean, { dry_run: false, applied: true }),
    );
    await chooseAndCheck();
    const apply = await screen.findByTestId('import-apply');
    expect(apply).toHaveTextContent(/^Apply$/);
    expect(screen.queryByTestId('import-refused-explained')).not.toBeInTheDocument();
    fireEvent.click(apply);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Apply' }));
    await screen.findByTestId('import-result');
    expect(spy).toHaveBeenLastCalledWith(
      expect.any(File),
      expect.objectContaining({ dryRun: false, mode: 'all_or_nothing' }),
    );
  });

  it('shows the server’s detail of a file it cannot read, keeps the file and lets another be chosen', async () => {
    const spy = setup(async () => {
      throw new HttpError('Line 3: the quote opened here is never closed', 400, {});
    });
    await chooseAndCheck(csvFile('broken.csv'));
    const alert = await screen.findByTestId('import-error');
    expect(alert).toHaveTextContent('The file cannot be imported');
    expect(alert).toHaveTextContent('Line 3: the quote opened here is never closed');
    expect(screen.getByTestId('import-file-name')).toHaveTextContent('broken.csv');
    expect(screen.getByTestId('import-check')).toBeEnabled();

    spy.mockImplementation(async () => resultOf(mixedRows));
    fireEvent.change(screen.getByTestId('import-file-input'), { target: { files: [csvFile('fixed.csv')] } });
    expect(screen.queryByTestId('import-error')).not.toBeInTheDocument();
    expect(screen.getByTestId('import-file-name')).toHaveTextContent('fixed.csv');
    fireEvent.click(screen.getByTestId('import-check'));
    await screen.findByTestId('import-plan');
  });

  it('says when the server cannot be reached, and retries', async () => {
    const spy = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await chooseAndCheck();
    const error = await screen.findByTestId('error-state');
    expect(error).toHaveTextContent('The server cannot be reached');
    spy.mockImplementation(async () => resultOf(mixedRows));
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('import-plan');
  });

  it('downloads the result as CSV with every row, its outcome, reason and detail', async () => {
    setup(async (_file, options) =>
      options.dryRun ? resultOf(mixedRows) : resultOf(mixedRows, { dry_run: false, mode: 'valid_rows', applied: true }),
    );
    await chooseAndCheck();
    fireEvent.click(await screen.findByTestId('import-apply'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Apply valid rows' }));
    fireEvent.click(await screen.findByTestId('import-download-result'));
    expect(downloadText).toHaveBeenCalledTimes(1);
    const [name, content] = vi.mocked(downloadText).mock.calls[0]!;
    expect(name).toBe('member-import-5f0c2b7e-8d1a-4c3e-9b6f-2a4d8e0c1b3a.csv');
    const lines = content.trim().split('\r\n');
    expect(lines[0]).toBe('line,user,business_unit,cluster,role,active,outcome,reason,detail');
    expect(lines).toHaveLength(5);
    expect(lines[3]).toBe(`4,nobody,A-PKT,,user,true,refused,unknown_user,No user has the username or email 'nobody'`);

    fireEvent.click(screen.getByTestId('import-start-over'));
    expect(await screen.findByTestId('import-file-name')).toHaveTextContent('No file chosen yet');
    expect(screen.queryByTestId('import-result')).not.toBeInTheDocument();
  });

  it('writes a cell a spreadsheet would run as a formula as text', () => {
    const csv = resultCsv(
      resultOf([row(2, { user: '=HYPERLINK("x")', outcome: 'refused', reason: 'unknown_user', detail: '@x' })]),
    );
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toContain(`'@x`);
  });
});
