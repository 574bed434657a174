import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import {
  AdminContext,
  ResourceContextProvider,
  ResourceDefinitionContextProvider,
  testDataProvider,
  type AuthProvider,
  type I18nProvider,
  type TranslationMessages,
} from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { messageModules, messages, thaiOnly } from './thai';
import type { Messages } from '../lib/messages';
import type { Grants } from '../types';
import { canAccessWith } from '../auth/permissions';
import { createQueryClient } from '../dataProvider/queryClient';
import { createReauth } from '../dataProvider/reauth';
import { RESOURCES } from '../resources/registry';
import { ClusterList } from '../resources/clusters/ClusterList';
import { ClusterShow } from '../resources/clusters/ClusterEdit';
import { BusinessUnitList } from '../resources/business-units/BusinessUnitList';
import { BusinessUnitEdit } from '../resources/business-units/BusinessUnitEdit';
import { PrintTemplateMappingList } from '../resources/print-template-mappings/PrintTemplateMappingList';
import { TestResolvePanel } from '../resources/print-template-mappings/TestResolvePanel';
import { AddWidgetDialog } from '../dashboard/AddWidgetDialog';
import { DASHBOARD_MESSAGES } from '../dashboard/screenMessages';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { DomainDashboardPage } from '../domain-dashboards/DomainDashboardPage';
import { AppMenu } from '../layout/AppMenu';
import { SessionExpiredDialog } from '../components/SessionExpiredDialog';
import { AccessDeniedPage } from '../pages/AccessDeniedPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { UserList } from '../resources/users/UserList';
import { UserCreate } from '../resources/users/UserCreate';
import { UserShow } from '../resources/users/UserEdit';
import { AuditLog } from '../audit-log/AuditLogPage';
import { userScreenMessages } from '../resources/users/messages';
import { auditScreenMessages } from '../audit-log/messages';
import { bulkScreenMessages } from '../components/bulk/messages';
import { exportScreenMessages } from '../components/export/messages';
import { memberImportScreenMessages } from '../member-import/messages';
import { accountScreenMessages } from '../account/messages';
import { resolveScreenMessages } from '../resources/print-template-mappings/resolveMessages';
import { ssoScreenMessages } from '../sso/messages';
import { ssoLoginScreenMessages } from '../sso/loginMessages';
import { SsoGroupMappings } from '../sso/SsoGroupMappingsPage';

// The chart library draws SVG with measured sizes, which jsdom cannot do; the labels around the charts are the
// console's own and are what this test reads.
vi.mock('@mui/x-charts/BarChart', () => ({ BarChart: () => <div data-testid="bar-chart" /> }));
vi.mock('@mui/x-charts/PieChart', () => ({ PieChart: () => <div data-testid="pie-chart" /> }));

const ADMIN: Grants = { platform: [], clusters: {}, is_super_admin: true };

/** Thai without English underneath; every key a screen asks for and Thai lacks is recorded. */
function strictThai() {
  const missing = new Set<string>();
  // Only Thai: react-admin's English is deliberately not underneath (hence the cast of the message tree).
  const provider: I18nProvider = polyglotI18nProvider(
    () => thaiOnly as unknown as TranslationMessages,
    'th',
    [{ locale: 'th', name: 'ไทย' }],
    {
      allowMissing: true,
      onMissingKey: (key: string) => {
        missing.add(key);
        return key;
      },
    },
  );
  return { provider, missing };
}

const authFor = (grants: Grants): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async (params) => canAccessWith(grants, params),
});

const cluster = {
  id: 'c1',
  code: 'CL-A',
  name: 'Andaman',
  alias_name: 'AND',
  max_license_bu: 3,
  is_active: true,
  bu_count: 1,
  users_count: 2,
  total_max_license_users: 5,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-02-01T00:00:00Z',
  created_by_name: 'Admin',
  updated_by_name: 'Admin',
};
const bu = {
  id: 'b1',
  cluster_id: 'c1',
  cluster_name: 'Andaman',
  code: 'BU-1',
  name: 'Beach',
  alias_name: 'BCH',
  is_active: true,
  is_hq: true,
  users_count: 2,
  max_license_users: 5,
  amount_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
  perpage_format: { default: 10 },
  quantity_format: null,
  recipe_format: null,
  calculation_method: 'fifo',
  timezone: 'Asia/Bangkok',
  config: [{ key: 'neg', label: 'Allow negative', datatype: 'boolean', value: false }],
  db_connection: '{"host":"db"}',
  created_at: '2024-01-01T00:00:00Z',
};
const mapping = {
  id: 'm1',
  document_type: 'PO',
  report_template_id: 't1',
  is_default: true,
  display_label: null,
  display_order: 0,
  allow_business_unit: ['BU-1', 'BU-X'],
  deny_business_unit: [],
  is_active: true,
  template_name: 'Purchase Order — standard',
  template_group: 'PO',
  unknown_business_unit_codes: ['BU-X'],
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};
const documentTypes = [
  { code: 'PO', label: 'Purchase Order' },
  { code: 'GRN', label: 'Good Received Note' },
];
const member = {
  id: 'm1',
  user_id: 'u1',
  cluster_id: 'c1',
  role: 'admin',
  is_active: true,
  parent_bu_id: 'b1',
  parent_bu_name: 'Beach',
  username: 'somchai',
  email: 's@x',
  userInfo: null,
};
const candidate = (id: string, outcome: string) => ({
  id,
  report_template_id: 't1',
  template_name: `Template ${id}`,
  display_label: null,
  is_default: outcome === 'selected',
  display_order: 0,
  is_active: outcome !== 'inactive',
  outcome,
  reason: `server words for ${outcome}`,
  unknown_business_unit_codes: id === 'm3' ? ['BU-X'] : [],
});

const account = {
  id: 'u1',
  username: 'somchai.j',
  email: 'somchai@example.com',
  firstname: 'Somchai',
  middlename: null,
  lastname: 'Jaidee',
  display_name: 'Somchai Jaidee',
  is_active: true,
  is_super_admin: true,
  must_change_password: true,
  sign_in_delayed: true,
  grant_count: 2,
  last_sign_in_at: null,
  created_at: '2026-11-01T08:30:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
};
const grants = [
  {
    id: 'g1',
    permission_key: 'user.manage',
    cluster_id: null,
    cluster_code: null,
    cluster_name: null,
    granted_at: '2026-11-05T10:00:00.000Z',
    granted_by_name: 'Admin',
  },
  {
    id: 'g2',
    permission_key: 'cluster.update',
    cluster_id: 'c1',
    cluster_code: 'CL-A',
    cluster_name: 'Andaman',
    granted_at: '2026-11-05T10:00:00.000Z',
    granted_by_name: 'Admin',
  },
];
const auditEvent = {
  id: 'e1',
  at: '2026-11-24T09:15:00.000Z',
  actor_id: 'u1',
  actor_name: 'Admin',
  action: 'updateUser',
  target_type: 'user',
  target_id: 'u1',
  cluster_id: null,
  request_id: 'r1',
  ip: '127.0.0.1',
  user_agent: null,
  changes: {
    email: { before: 'old@example.com', after: 'somchai@example.com' },
    is_active: { before: false, after: true },
  },
};

const provider = () =>
  testDataProvider({
    getList: vi.fn(async (resource: string) =>
      resource === 'clusters'
        ? { data: [cluster], total: 1 }
        : resource === 'business-units'
          ? { data: [bu], total: 1 }
          : resource === 'users'
            ? { data: [account], total: 1 }
            : resource === 'audit-log'
              ? { data: [auditEvent], total: 1 }
              : { data: [mapping], total: 1 },
    ),
    getOne: vi.fn(async (resource: string) => ({
      data: resource === 'clusters' ? cluster : resource === 'users' ? account : bu,
    })),
    getUserGrants: vi.fn(async () => ({ data: grants, is_super_admin: true })),
    getUserSso: vi.fn(async () => ({
      sso_only: true,
      identities: [
        {
          provider: 'entra',
          subject: 'sub-1',
          email: 'somchai@example.com',
          created_at: '2026-11-20T07:45:00.000Z',
          last_sign_in_at: '2026-11-20T07:45:00.000Z',
        },
      ],
    })),
    listSsoProviders: vi.fn(async () => [{ id: 'entra', display_name: 'Microsoft Entra ID' }]),
    listSsoGroupMappings: vi.fn(async () => [
      {
        id: 'sm1',
        provider: 'entra',
        group: 'hotel-operators',
        permission_key: 'cluster.read',
        cluster_id: 'c1',
        cluster_code: 'CL-A',
        created_at: '2026-11-20T07:45:00.000Z',
      },
      {
        id: 'sm2',
        provider: 'gone',
        group: 'auditors',
        permission_key: 'user.read',
        cluster_id: null,
        cluster_code: null,
        created_at: '2026-11-20T07:45:00.000Z',
      },
    ]),
    listAuditEvents: vi.fn(async () => ({
      data: [auditEvent],
      paginate: { total: 1, page: 1, perpage: 10, pages: 1 },
    })),
    getClusterUsers: vi.fn(async () => [member]),
    getBusinessUnitUsers: vi.fn(async () => [{ ...member, business_unit_id: 'b1' }]),
    getCurrencies: vi.fn(async () => []),
    getDocumentTypes: vi.fn(async () => documentTypes),
    getReportTemplates: vi.fn(async () => ({ data: [], paginate: { total: 0, page: 1, perpage: -1, pages: 1 } })),
    resolvePrintTemplateMapping: vi.fn(async () => ({
      ...mapping,
      explanation: [
        candidate('m1', 'selected'),
        candidate('m2', 'lower_rank'),
        candidate('m3', 'denied'),
        candidate('m4', 'not_in_allow_list'),
        candidate('m5', 'inactive'),
      ],
    })),
    getDatasets: vi.fn(async () => ({
      items: [
        {
          id: 'tenancy.active-clusters',
          name: 'Active clusters',
          description: 'Live clusters whose status is active.',
          shape: 'scalar',
          category: 'tenancy',
          unit: 'clusters',
          widget_types: ['kpi', 'gauge'],
          scope: 'clusters',
          measure: 'count',
        },
        {
          id: 'approvals.pending-by-type',
          name: 'My pending approvals by type',
          description: 'x',
          shape: 'categorical',
          category: 'approvals',
          unit: 'documents',
          widget_types: ['pie', 'bar'],
          scope: 'own',
          measure: 'count',
        },
      ],
      count: 2,
    })),
    getMyPendingCount: vi.fn(async () => ({ pending: 3 })),
    getApprovalSummary: vi.fn(async () => ({
      groups: [
        {
          doc_type: 'po',
          count: 1,
          totals: [{ currency_code: 'THB', total_amount: 1500 }],
          items: [
            {
              id: 'p',
              doc_type: 'po',
              doc_no: 'PO-1',
              doc_date: '2026-11-20',
              total_amount: 1500,
              currency_code: 'THB',
              workflow_current_stage: 'Head',
              business_unit_id: 'b1',
              business_unit_name: 'Beach',
              requestor_name: null,
            },
          ],
        },
      ],
    })),
  } as never);

function renderInThai(path: string, routes: { path: string; resource?: string; element: React.ReactNode }[]) {
  const { provider: i18nProvider, missing } = strictThai();
  const dataProvider = provider();
  const definitions = Object.fromEntries(
    RESOURCES.map((r) => [
      r.name,
      { name: r.name, hasList: true, hasShow: true, hasEdit: true, hasCreate: true, icon: r.icon },
    ]),
  );
  const queryClient = createQueryClient();
  const page = (element: React.ReactNode, resource?: string) => (
    <AdminContext
      dataProvider={dataProvider}
      authProvider={authFor(ADMIN)}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
    >
      <ResourceDefinitionContextProvider definitions={definitions}>
        {resource ? <ResourceContextProvider value={resource}>{element}</ResourceContextProvider> : element}
      </ResourceDefinitionContextProvider>
    </AdminContext>
  );
  const router = createMemoryRouter(
    routes.map((r) => ({ path: r.path, element: page(r.element, r.resource) })),
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { missing, queryClient };
}

function leaves(tree: Messages, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`),
  );
}

/** Every query the screen asked for has answered, so every label it draws from them has been asked for. */
const queriesAnswered = (queryClient: QueryClient) =>
  waitFor(() => expect(queryClient.isFetching() + queryClient.isMutating()).toBe(0));

beforeEach(() => localStorage.clear());

describe('the console in Thai', { timeout: 60_000 }, () => {
  it('has a Thai message for every English message of every folder', () => {
    // With the messages that load with their screens.
    for (const mod of [
      ...messageModules,
      userScreenMessages,
      auditScreenMessages,
      bulkScreenMessages,
      exportScreenMessages,
      memberImportScreenMessages,
      accountScreenMessages,
      resolveScreenMessages,
      ssoScreenMessages,
      ssoLoginScreenMessages,
    ])
      expect(leaves(mod.th).sort()).toEqual(leaves(mod.en).sort());
  });

  it('records a key Thai does not have (the check below is not blind)', () => {
    const { provider, missing } = strictThai();
    provider.translate('app.no_such_message');
    provider.translate('app.no_such_message_with_default', { _: 'fallback' });
    expect([...missing]).toEqual(['app.no_such_message']);
  });

  it('shows the lists, their toolbars, row menus and pagination in Thai', async () => {
    const { missing, queryClient } = renderInThai('/clusters', [
      { path: '/clusters', resource: 'clusters', element: <ClusterList /> },
      { path: '/business-units', resource: 'business-units', element: <BusinessUnitList /> },
    ]);
    // Generous waits: the list renders two resources' worth of react-admin, slow on a busy machine.
    expect(await screen.findByText('CL-A', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('1–1 จาก 1')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('row-actions-c1'));
    expect(await screen.findByRole('menuitem', { name: 'เปิด' }, { timeout: 5000 })).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    fireEvent.click(screen.getByTestId('open-filters'));
    await screen.findByText('แสดงรายการที่ถูกลบ', {}, { timeout: 5000 });
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows a cluster and a business unit with all their cards in Thai', async () => {
    const { missing, queryClient } = renderInThai('/clusters/c1', [
      { path: '/clusters/:id', resource: 'clusters', element: <ClusterShow /> },
      { path: '/business-units/:id/edit', resource: 'business-units', element: <BusinessUnitEdit /> },
    ]);
    expect(await screen.findByText('รายละเอียดคลัสเตอร์')).toBeInTheDocument();
    expect(await screen.findByText('somchai')).toBeInTheDocument();
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the business unit form, its sections and number formats in Thai', async () => {
    const { missing, queryClient } = renderInThai('/business-units/b1/edit', [
      { path: '/business-units/:id/edit', resource: 'business-units', element: <BusinessUnitEdit /> },
    ]);
    expect(await screen.findByTestId('bu-summary')).toBeInTheDocument();
    fireEvent.click(await screen.findByTestId('mode-edit'));
    expect(await screen.findByText('รูปแบบตัวเลข')).toBeInTheDocument();
    expect(screen.getAllByText('ตัวอย่าง:').length).toBeGreaterThan(0);
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the print mappings, the resolve tester and its explanation in Thai', async () => {
    const { missing, queryClient } = renderInThai('/print-template-mappings', [
      { path: '/print-template-mappings', resource: 'print-template-mappings', element: <PrintTemplateMappingList /> },
      { path: '/resolve', resource: 'print-template-mappings', element: <TestResolvePanel defaultDocumentType="PO" /> },
    ]);
    expect(await screen.findByText('Purchase Order — standard', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('1–1 จาก 1')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('open-test-resolve'));
    const drawer = await screen.findByRole('dialog', { name: 'ทดสอบการเลือกแม่แบบ' });
    fireEvent.mouseDown(within(drawer).getByRole('combobox', { name: /^ประเภทเอกสาร/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'PO — ใบสั่งซื้อ' }));
    const resolve = within(drawer).getByRole('button', { name: 'ทดสอบ' });
    await waitFor(() => expect(resolve).toBeEnabled());
    fireEvent.change(screen.getByLabelText('รหัสหน่วยธุรกิจ'), { target: { value: 'BU-1' } });
    fireEvent.click(resolve);
    expect(
      await screen.findByText('หน่วยธุรกิจ BU-1 อยู่ในรายการไม่อนุญาต (รายการไม่อนุญาตมีผลเหนือรายการอนุญาต)'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/server words/)).not.toBeInTheDocument();
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the widget catalog, the domain dashboards, the menu and the session dialog in Thai', async () => {
    const reauth = createReauth();
    const { missing, queryClient } = renderInThai('/', [
      {
        path: '/',
        element: (
          <>
            <AppMenu />
            <ScreenMessages modules={DASHBOARD_MESSAGES}>
              <AddWidgetDialog open onClose={() => undefined} onSubmit={() => undefined} pinnedDatasetIds={[]} />
            </ScreenMessages>
            <DomainDashboardPage domain="main" />
            <SessionExpiredDialog reauth={reauth} />
            <AccessDeniedPage />
            <NotFoundPage resource="clusters" />
          </>
        ),
      },
    ]);
    expect(await screen.findByText('คลัสเตอร์ที่ใช้งาน')).toBeInTheDocument();
    expect(screen.getAllByText('การเช่าใช้').length).toBeGreaterThan(0);
    expect(screen.queryByText('Active clusters')).not.toBeInTheDocument();
    expect((await screen.findAllByText('ข้อมูลตัวอย่าง')).length).toBeGreaterThan(0);
    // The add-widget dialog is open, so the page behind it is hidden from the accessibility tree.
    expect(screen.getByRole('link', { name: 'กลับไปที่คลัสเตอร์', hidden: true })).toBeInTheDocument();
    void reauth.request();
    expect(await screen.findByText('เซสชันของคุณหมดอายุ')).toBeInTheDocument();
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the users list and its filters in Thai', async () => {
    const { missing, queryClient } = renderInThai('/users', [
      { path: '/users', resource: 'users', element: <UserList /> },
    ]);
    expect(await screen.findByText('somchai.j')).toBeInTheDocument();
    expect(screen.getByText('ยังไม่เคย')).toBeInTheDocument();
    // The filters live in the sheet the Filters button opens, as on every list.
    fireEvent.click(screen.getByTestId('open-filters'));
    fireEvent.mouseDown(await screen.findByTestId('filter-grants'));
    fireEvent.click(await screen.findByRole('option', { name: 'มีสิทธิ์' }));
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the user create form in Thai', async () => {
    const { missing, queryClient } = renderInThai('/users/new', [
      { path: '/users/new', resource: 'users', element: <UserCreate /> },
    ]);
    expect(await screen.findByText('ผู้ใช้ต้องเปลี่ยนรหัสผ่านนี้เมื่อเข้าสู่ระบบครั้งแรก')).toBeInTheDocument();
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the audit log, a row unfolded, in Thai', async () => {
    const { missing, queryClient } = renderInThai('/audit-log', [{ path: '/audit-log', element: <AuditLog /> }]);
    fireEvent.click(await screen.findByTestId('audit-row-toggle'));
    expect(await screen.findByText('แก้ไขบัญชี')).toBeInTheDocument();
    expect(await screen.findByText('ใช่')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('open-filters'));
    fireEvent.mouseDown(await screen.findByTestId('filter-action'));
    expect(await screen.findByRole('option', { name: 'ให้สิทธิ์' })).toBeInTheDocument();
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows a user’s tabs, actions, grants, the add-grant dialog and the history in Thai', async () => {
    const { missing, queryClient } = renderInThai('/users/u1', [
      { path: '/users/:id', resource: 'users', element: <UserShow /> },
    ]);
    expect(await screen.findByText('ข้อมูลผู้ใช้')).toBeInTheDocument();
    expect(await screen.findByText('ใช้ SSO เท่านั้น')).toBeInTheDocument();
    expect(await screen.findByText('Microsoft Entra ID')).toBeInTheDocument();
    expect(await screen.findByText('ปลดล็อกการเข้าสู่ระบบ')).toBeInTheDocument();
    fireEvent.click(screen.getByText('ปิดการใช้งาน'));
    expect(await screen.findByText('ปิดการใช้งาน somchai.j หรือไม่?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'ยกเลิก' }));
    fireEvent.click(screen.getByText('รีเซ็ตรหัสผ่าน'));
    expect(await screen.findByText('รีเซ็ตรหัสผ่านของ somchai.j')).toBeInTheDocument();
    fireEvent.click(within(screen.getByTestId('reset-password-dialog')).getByRole('button', { name: 'ยกเลิก' }));
    fireEvent.click(screen.getByTestId('tab-access'));
    expect(await screen.findByText('จัดการผู้ใช้')).toBeInTheDocument();
    expect(screen.getAllByText('ทุกคลัสเตอร์').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('grant-add'));
    const dialog = await screen.findByTestId('add-grant-dialog');
    fireEvent.mouseDown(within(within(dialog).getByTestId('grant-key-select')).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: 'ดูผู้ใช้' }));
    expect(await within(dialog).findByText('สิทธิ์นี้ใช้ได้กับทุกคลัสเตอร์เท่านั้น')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'ยกเลิก' }));
    fireEvent.click(screen.getByTestId('tab-history'));
    expect(await screen.findByText('แก้ไขบัญชี')).toBeInTheDocument();
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('shows the single sign-on screen, its mappings and the add dialog in Thai', async () => {
    const { missing, queryClient } = renderInThai('/sso/group-mappings', [
      { path: '/sso/group-mappings', element: <SsoGroupMappings /> },
    ]);
    expect(await screen.findByText('hotel-operators')).toBeInTheDocument();
    expect(screen.getByText('ดูคลัสเตอร์')).toBeInTheDocument();
    expect(screen.getByText('ทุกคลัสเตอร์')).toBeInTheDocument();
    expect(screen.getByText('gone (ไม่ได้ตั้งค่าไว้)')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('mapping-add'));
    expect(await screen.findByText('จับคู่กลุ่มกับสิทธิ์')).toBeInTheDocument();
    fireEvent.click(within(screen.getByTestId('add-mapping-dialog')).getByRole('button', { name: 'ยกเลิก' }));
    fireEvent.click(screen.getAllByTestId('mapping-remove')[0]!);
    expect(await screen.findByText('ลบการจับคู่ของ "hotel-operators" หรือไม่?')).toBeInTheDocument();
    await queriesAnswered(queryClient);
    expect([...missing]).toEqual([]);
  });

  it('uses Thai for every react-admin message the Thai console keeps', () => {
    // The Thai table merged for the app holds a Thai string wherever Thai has one of its own.
    const th = messages.th as Messages;
    const lookup = (key: string) =>
      key.split('.').reduce<unknown>((n, p) => (n && typeof n === 'object' ? (n as Messages)[p] : undefined), th);
    expect(lookup('ra.navigation.page_range_info')).toBe('%{offsetBegin}–%{offsetEnd} จาก %{total}');
    expect(lookup('app.list.range')).toBe('%{from}–%{to} จาก %{count}');
  });
});
