import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, ResourceContextProvider, testDataProvider, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import type { Grants } from '../../types';
import { canAccessWith } from '../../auth/permissions';
import { createQueryClient } from '../../dataProvider/queryClient';
import { downloadBlob } from '../../lib/csv';
import { renderWithAdmin } from '../../test/renderWithAdmin';
import { PrintTemplateMappingList } from './PrintTemplateMappingList';
import { PrintTemplateMappingCreate } from './PrintTemplateMappingCreate';
import { PrintTemplateMappingShow } from './PrintTemplateMappingShow';
import { TemplateSelect } from './TemplateSelectInput';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { RESOLVE_SCREEN_MESSAGES } from './resolveMessages';
import { ResolveResult } from './ResolveResult';

vi.mock('../../lib/csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/csv')>()),
  downloadBlob: vi.fn(),
}));

const MAPPER: Grants = {
  platform: ['print_template_mapping.manage', 'cluster.read'],
  clusters: {},
  is_super_admin: false,
};
const READER: Grants = { platform: [], clusters: {}, is_super_admin: false };

const mapping = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  document_type: 'PO',
  report_template_id: '8a9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d',
  is_default: false,
  display_label: null,
  display_order: 0,
  allow_business_unit: [],
  deny_business_unit: [],
  is_active: true,
  template_name: `Template ${id}`,
  template_group: 'PO',
  unknown_business_unit_codes: [],
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  created_by_name: 'Admin',
  updated_by_name: 'Admin',
  ...extra,
});
const rows = [
  mapping('m1', { is_default: true, display_label: 'With signatures' }),
  mapping('m2', { allow_business_unit: ['A-PKT', 'A-TYPO'], unknown_business_unit_codes: ['A-TYPO'] }),
  mapping('m3', { document_type: 'GRN', template_group: 'GRN', is_default: true }),
];
const documentTypes = [
  { code: 'PO', label: 'Purchase Order' },
  { code: 'GRN', label: 'Good Received Note' },
];

function setup(grants: Grants, path = '/print-template-mappings') {
  const dp = {
    getList: vi.fn(async (resource: string) =>
      resource === 'business-units'
        ? { data: [{ id: 'b1', code: 'A-PKT', name: 'Andaman Phuket Beach' }], total: 1 }
        : { data: rows, total: rows.length },
    ),
    getOne: vi.fn(async () => ({ data: rows[1] })),
    getDocumentTypes: vi.fn(async () => documentTypes),
    getReportTemplates: vi.fn(async () => ({ data: [], paginate: { total: 0, page: 1, perpage: -1, pages: 1 } })),
    resolvePrintTemplateMapping: vi.fn(),
    exportCsv: vi.fn(async () => ({ filename: 'print-template-mappings-2026-11-28.csv', blob: new Blob(['x']) })),
  };
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (params) => canAccessWith(grants, params),
  };
  const page = (element: React.ReactNode) => (
    <AdminContext
      dataProvider={testDataProvider(dp as never)}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={createQueryClient()}
    >
      <ResourceContextProvider value="print-template-mappings">{element}</ResourceContextProvider>
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      { path: '/print-template-mappings', element: page(<PrintTemplateMappingList />) },
      { path: '/print-template-mappings/create', element: page(<PrintTemplateMappingCreate />) },
      { path: '/print-template-mappings/:id/show', element: page(<PrintTemplateMappingShow />) },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { dp, router };
}

const findRows = () => screen.findAllByTestId('mapping-row', {}, { timeout: 5000 });

beforeEach(() => localStorage.clear());

describe('print template mappings list', { timeout: 30_000 }, () => {
  it('has the toolbar of every list: search, filters, Test resolve, Export and Create', async () => {
    setup(MAPPER);
    await findRows();
    const toolbar = screen.getByTestId('list-toolbar');
    expect(within(toolbar).getByRole('textbox', { name: 'Search' })).toBeInTheDocument();
    // The filters live in the sheet the Filters button opens, as on every list.
    fireEvent.click(within(toolbar).getByTestId('open-filters'));
    const sheet = await screen.findByRole('dialog', { name: 'Filters' });
    expect(within(sheet).getByRole('combobox', { name: /^Document type/ })).toBeInTheDocument();
    expect(within(sheet).getByLabelText('Active only')).toBeInTheDocument();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Filters' })).not.toBeInTheDocument());
    expect(within(toolbar).getByRole('button', { name: 'Test resolve' })).toBeInTheDocument();
    expect(within(toolbar).getByRole('button', { name: 'Export' })).toBeEnabled();
    expect(within(toolbar).getByRole('link', { name: 'Create' })).toHaveAttribute(
      'href',
      '/print-template-mappings/create',
    );
  });

  it('lines every document type up under one set of column headings', async () => {
    setup(MAPPER);
    await findRows();
    expect(screen.getAllByRole('table')).toHaveLength(1);
    expect(screen.getAllByRole('row').filter((r) => within(r).queryAllByRole('columnheader').length > 1)).toHaveLength(
      1,
    );
    expect(screen.getByTestId('mapping-group-PO')).toBeInTheDocument();
    expect(screen.getByTestId('mapping-group-GRN')).toBeInTheDocument();
  });

  it('says "Default" in words in the star column, for screen readers too', async () => {
    setup(MAPPER);
    const [first, second] = await findRows();
    // Cell 0 is the row's checkbox of the bulk actions.
    const firstCell = within(first!).getAllByRole('cell')[1]!;
    expect(firstCell).toHaveTextContent('Default');
    expect(within(firstCell).getByTestId('default-star')).toHaveAttribute('aria-hidden', 'true');
    expect(within(second!).getAllByRole('cell')[1]).toHaveTextContent('Not default');
  });

  it('warns about allow or deny codes that match no business unit', async () => {
    setup(MAPPER);
    const [, second] = await findRows();
    expect(within(second!).getByTestId('unknown-bu-codes')).toHaveTextContent('Matches no business unit: A-TYPO');
    expect(within(second!).getByLabelText('A-TYPO: No business unit has this code')).toBeInTheDocument();
    expect(within(second!).queryByLabelText(/^A-PKT:/)).toBeNull();
  });

  it('exports every matching mapping through the server, with the list’s filter and sort', async () => {
    const { dp } = setup(MAPPER);
    await findRows();
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(await screen.findByTestId('export-all', {}, { timeout: 5000 }));
    await waitFor(() =>
      expect(downloadBlob).toHaveBeenCalledWith('print-template-mappings-2026-11-28.csv', expect.any(Blob)),
    );
    expect(dp.exportCsv).toHaveBeenCalledWith(
      {
        resource: 'print-template-mappings',
        filter: {},
        sort: { field: 'document_type:asc,is_default:desc,display_order', order: 'ASC' },
      },
      expect.objectContaining({ page: undefined }),
    );
  });

  it('opens Test resolve as a side panel, picking the business unit from the BU list', async () => {
    setup(MAPPER);
    await findRows();
    fireEvent.click(screen.getByRole('button', { name: 'Test resolve' }));
    const panel = await screen.findByRole('dialog', { name: 'Test resolve' });
    const bu = within(panel).getByRole('combobox', { name: 'Business unit code' });
    fireEvent.mouseDown(bu);
    expect(await screen.findByRole('option', { name: 'A-PKT — Andaman Phuket Beach' })).toBeInTheDocument();
  });

  it('opens a mapping’s read view from a row click, for any signed-in user', async () => {
    const { router } = setup(READER);
    const [, second] = await findRows();
    // A reader has no Edit or Delete, and the toolbar no Create.
    expect(within(second!).queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    fireEvent.click(within(second!).getByText('Template m2'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/print-template-mappings/m2/show'));
    const view = await screen.findByTestId('mapping-show', {}, { timeout: 5000 });
    expect(within(view).getByTestId('unknown-bu-codes')).toHaveTextContent('A-TYPO');
  });

  it('offers Cancel on the create form, back to the list with nothing sent', async () => {
    setup(MAPPER, '/print-template-mappings/create');
    const cancel = await screen.findByRole('link', { name: 'Cancel' }, { timeout: 5000 });
    expect(cancel).toHaveAttribute('href', '/print-template-mappings');
  });
});

describe('print template mapping details', () => {
  it('never offers a group heading of the template picker as an option', () => {
    const onChange = vi.fn();
    const tpl = (id: string, name: string, kind: 'print' | 'report', report_group: string) => ({
      id,
      name,
      description: null,
      kind,
      report_group,
      is_active: true,
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
    });
    renderWithAdmin(
      <TemplateSelect
        templates={[tpl('t1', 'Goods receipt note', 'print', 'GRN'), tpl('t2', 'Purchase order', 'print', 'PO')]}
        documentType="GRN"
        value=""
        onChange={onChange}
        label="Report template"
      />,
      {},
    );
    fireEvent.mouseDown(screen.getByRole('combobox'));
    const listbox = screen.getByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Goods receipt note', 'Purchase order (print · PO)']);
    const headings = within(listbox).getAllByTestId('template-group-heading');
    expect(headings).toHaveLength(2);
    for (const h of headings) {
      expect(h).not.toHaveAttribute('role', 'option');
      expect(h).not.toHaveAttribute('tabindex');
      fireEvent.click(h);
    }
    expect(onChange).not.toHaveBeenCalled();
  });

  it('names the winning template in words, without the mapping’s id', () => {
    // The result shows inside the resolve tester, which brings its words with it.
    renderWithAdmin(
      <ScreenMessages modules={RESOLVE_SCREEN_MESSAGES}>
        <ResolveResult
          buCode="A-PKT"
          outcome={{
            status: 'found',
            mapping: { ...mapping('0b6c5d2e-2f4a-4c1e-9a57-3f1f8f0a2b11'), template_name: 'PO standard' } as never,
            candidates: [],
          }}
        />
      </ScreenMessages>,
      {},
    );
    const winner = screen.getByTestId('resolve-winner');
    expect(winner).toHaveTextContent('Prints with: PO standard');
    expect(winner).toHaveTextContent('This is the template a PO of business unit A-PKT prints with.');
    expect(winner.textContent).not.toContain('0b6c5d2e');
  });
});
