import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import type { AuditEvent, Grants } from '../types';
import { AuditLog } from './AuditLogPage';
import { auditLogOfImport } from './paths';
import { toAuditQuery } from '../dataProvider/auditLogQuery';
import type { ListParams } from '../dataProvider/query';
import { downloadBlob } from '../lib/csv';
import { SUPER, account, renderRoutes } from '../resources/users/testing';

vi.mock('../lib/csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/csv')>()),
  downloadBlob: vi.fn(),
}));

const event = (id: string, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  id,
  at: '2026-11-24T09:15:00.000Z',
  actor_id: 'u1',
  actor_name: 'Platform Administrator',
  action: 'updateCluster',
  target_type: 'cluster',
  target_id: 'c1',
  cluster_id: 'c1',
  request_id: 'req-1',
  ip: '127.0.0.1',
  user_agent: 'Mozilla/5.0',
  changes: { name: { before: 'Old name', after: 'New name' } },
  import_id: null,
  ...extra,
});

const clusters = [{ id: 'c1', code: 'CL-A', name: 'Andaman', is_active: true }];

function setup(
  grants: Grants = SUPER,
  events: AuditEvent[] = [
    event('e1'),
    event('e2', {
      action: 'login.failed',
      target_type: 'session',
      target_id: null,
      actor_id: null,
      actor_name: null,
      changes: {},
    }),
  ],
  failure?: Error,
  methods: object = {},
  path = '/audit-log',
) {
  const listAuditEvents = vi.fn(async (_query?: unknown) => {
    if (failure) throw failure;
    return { data: events, paginate: { total: events.length, page: 1, perpage: 25, pages: 1 } };
  });
  // The log's page goes through the data provider's own mapping of react-admin's list parameters.
  const getList = vi.fn(async (resource: string, params: ListParams) => {
    if (resource === 'audit-log') {
      const page = await listAuditEvents(toAuditQuery(params));
      return { data: page.data, total: page.paginate.total };
    }
    return resource === 'clusters'
      ? { data: clusters, total: 1 }
      : { data: [account('u7', { username: 'somchai.j', display_name: 'Somchai Jaidee' })], total: 1 };
  });
  const router = renderRoutes(path, grants, { listAuditEvents, getList, ...methods }, [
    { path: '/audit-log', element: <AuditLog /> },
    { path: '/clusters/:id', element: <p>cluster read view</p> },
  ]);
  const lastQuery = () => listAuditEvents.mock.calls.at(-1)![0] as Record<string, unknown>;
  return { listAuditEvents, getList, router, lastQuery };
}

/** The filters live in the sheet the Filters button opens, as on every list. */
const openFilters = () => {
  if (!screen.queryByTestId('clear-filters')) fireEvent.click(screen.getByTestId('open-filters'));
};

const pick = async (testId: string, option: string) => {
  openFilters();
  fireEvent.mouseDown(await screen.findByTestId(testId));
  fireEvent.click(await screen.findByRole('option', { name: option }));
};

beforeEach(() => localStorage.clear());

describe('the audit log query', () => {
  it('sends only the chosen filters, the days as local midnights, and `to` through the end of its day', () => {
    expect(toAuditQuery({ pagination: { page: 1, perPage: 25 }, filter: {} })).toEqual({ page: 1, perpage: 25 });
    const query = toAuditQuery({
      pagination: { page: 2, perPage: 50 },
      filter: {
        target_type: 'user',
        actor_id: 'u7',
        actor: { id: 'u7', username: 'somchai.j', display_name: 'Somchai Jaidee' },
        action: ' updateUser ',
        cluster_id: 'c1',
        from: '2026-11-01',
        to: '2026-11-30',
        import_id: '',
      },
    });
    expect(query).toEqual({
      page: 2,
      perpage: 50,
      target_type: 'user',
      actor_id: 'u7',
      action: 'updateUser',
      cluster_id: 'c1',
      from: new Date(2026, 10, 1).toISOString(),
      to: new Date(2026, 11, 1).toISOString(),
    });
  });

  it('leaves out a record type the contract does not know and a day that is not one', () => {
    expect(
      toAuditQuery({ pagination: { page: 1, perPage: 25 }, filter: { target_type: 'planet', from: '2026-13-45x' } }),
    ).toEqual({ page: 1, perpage: 25 });
  });
});

describe('the audit log page', { timeout: 30_000 }, () => {
  it('lists the events newest first with who, when, the action in words and the record', async () => {
    const { lastQuery } = setup();
    const [update, failed] = await screen.findAllByTestId('audit-row');
    expect(lastQuery()).toEqual({ page: 1, perpage: 25 });
    expect(update).toHaveTextContent('Platform Administrator');
    expect(update).toHaveTextContent('Updated the cluster');
    expect(within(update!).getByTestId('audit-record-link')).toHaveAttribute('href', '/clusters/c1');
    expect(failed).toHaveTextContent('Anonymous');
    expect(failed).toHaveTextContent('Sign-in failed');
    expect(within(failed!).queryByTestId('audit-record-link')).not.toBeInTheDocument();
  });

  it('builds the query from every filter', async () => {
    const { lastQuery } = setup();
    await screen.findAllByTestId('audit-row');
    await pick('filter-target-type', 'User');
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, perpage: 25, target_type: 'user' }));
    await pick('filter-action', 'Granted a permission');
    await waitFor(() => expect(lastQuery()).toMatchObject({ action: 'addUserGrant' }));
    fireEvent.mouseDown(screen.getByTestId('filter-actor'));
    fireEvent.click(await screen.findByRole('option', { name: 'Somchai Jaidee (somchai.j)' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ actor_id: 'u7' }));
    fireEvent.mouseDown(screen.getByTestId('filter-cluster'));
    fireEvent.click(await screen.findByRole('option', { name: 'CL-A — Andaman' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ cluster_id: 'c1' }));
    fireEvent.change(screen.getByTestId('filter-from'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByTestId('filter-to'), { target: { value: '2026-11-30' } });
    // The days read the console language's way, not the browser's `mm/dd/yyyy`.
    await waitFor(() => expect(screen.getByTestId('filter-from-text')).toHaveValue('Nov 1, 2026'));
    await waitFor(() =>
      expect(lastQuery()).toEqual({
        page: 1,
        perpage: 25,
        target_type: 'user',
        action: 'addUserGrant',
        actor_id: 'u7',
        cluster_id: 'c1',
        from: new Date(2026, 10, 1).toISOString(),
        to: new Date(2026, 11, 1).toISOString(),
      }),
    );
    await pick('filter-target-type', 'Any');
    await waitFor(() => expect(lastQuery()).not.toHaveProperty('target_type'));
  });

  it('keeps its filters when the operator opens a record and comes back', async () => {
    const { router, lastQuery } = setup();
    await screen.findAllByTestId('audit-row');
    await pick('filter-action', 'Granted a permission');
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, perpage: 25, action: 'addUserGrant' }));
    await router.navigate('/clusters/c1');
    expect(await screen.findByText('cluster read view')).toBeInTheDocument();
    await router.navigate('/audit-log');
    await screen.findAllByTestId('audit-row');
    expect(lastQuery()).toEqual({ page: 1, perpage: 25, action: 'addUserGrant' });
    // The Filters button's badge still counts the one filter in use.
    expect(screen.getByTestId('open-filters').parentElement).toHaveTextContent('1');
  });

  it('opens a link of the old `?import_id=` form on that import’s events', async () => {
    const importId = '5f0c2b7e-8d1a-4c3e-9b6f-2a4d8e0c1b3a';
    const { lastQuery } = setup(SUPER, undefined, undefined, {}, `/audit-log?import_id=${importId}`);
    expect(await screen.findByTestId('filter-import')).toHaveTextContent(`Import ${importId}`);
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, perpage: 25, import_id: importId }));
  });

  it('leaves out the actor filter for a caller who may not list accounts', async () => {
    setup({ platform: [], clusters: { c1: ['cluster.read'] }, is_super_admin: false });
    await screen.findAllByTestId('audit-row');
    openFilters();
    expect(await screen.findByTestId('filter-cluster')).toBeInTheDocument();
    expect(screen.queryByTestId('filter-actor')).not.toBeInTheDocument();
  });

  it('unfolds a row to its field changes and opens its record', async () => {
    const { router } = setup();
    const [update] = await screen.findAllByTestId('audit-row');
    fireEvent.click(within(update!).getByTestId('audit-row-toggle'));
    expect(await screen.findByTestId('change-before')).toHaveTextContent('Old name');
    expect(screen.getByTestId('change-after')).toHaveTextContent('New name');
    expect(screen.getByText('Request req-1 from 127.0.0.1')).toBeInTheDocument();
    fireEvent.click(within(update!).getByTestId('audit-record-link'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/clusters/c1'));
  });

  it('says when no event matches', async () => {
    setup(SUPER, []);
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('No events match the filters');
    expect(screen.getByTestId('export-csv')).toBeDisabled();
  });

  it('shows the server’s refusal', async () => {
    setup(SUPER, [], new HttpError('Missing permission cluster.read', 403, {}));
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Missing permission cluster.read');
  });

  it('exports this page of the filtered log through the server', async () => {
    const exportCsv = vi.fn(async () => ({ filename: 'audit-events-2026-11-24.csv', blob: new Blob(['When\r\n']) }));
    setup(SUPER, undefined, undefined, { exportCsv });
    await screen.findAllByTestId('audit-row', {}, { timeout: 5000 });
    await pick('filter-action', 'Granted a permission');
    await waitFor(() => expect(screen.getByTestId('export-csv')).toBeEnabled());
    fireEvent.click(screen.getByTestId('export-csv'));
    expect(await screen.findByTestId('export-page', {}, { timeout: 5000 })).toHaveTextContent('This page (2 rows)');
    fireEvent.click(screen.getByTestId('export-page'));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith('audit-events-2026-11-24.csv', expect.any(Blob)));
    expect(exportCsv).toHaveBeenCalledWith(
      { resource: 'audit-events', filter: { action: 'addUserGrant' } },
      expect.objectContaining({ page: { page: 1, perPage: 25 } }),
    );
  });

  it('when opened from an import’s result, shows only that import’s events until its chip is removed', async () => {
    const importId = '5f0c2b7e-8d1a-4c3e-9b6f-2a4d8e0c1b3a';
    const { lastQuery } = setup(
      SUPER,
      [event('e1', { action: 'addBusinessUnitUser', import_id: importId })],
      undefined,
      {},
      auditLogOfImport(importId),
    );
    const chip = await screen.findByTestId('filter-import');
    expect(chip).toHaveTextContent(`Import ${importId}`);
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, perpage: 25, import_id: importId }));
    fireEvent.click(within(chip).getByLabelText('Show events of every import'));
    await waitFor(() => expect(screen.queryByTestId('filter-import')).not.toBeInTheDocument());
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, perpage: 25 }));
  });
});
