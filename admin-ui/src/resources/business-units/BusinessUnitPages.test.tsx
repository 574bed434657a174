import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, ResourceContextProvider, testDataProvider, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import { BusinessUnitCreate } from './BusinessUnitCreate';
import { BusinessUnitEdit } from './BusinessUnitEdit';

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

const bu = {
  id: 'b1',
  cluster_id: 'c1',
  cluster_name: 'Andaman',
  code: 'BU-1',
  name: 'Beach Resort',
  alias_name: null,
  is_hq: false,
  is_active: true,
  amount_format: { locales: 'en-US', minimumIntegerDigits: 1 },
  perpage_format: null,
  quantity_format: 'raw text',
  recipe_format: null,
  calculation_method: 'fifo',
  default_currency_id: null,
  config: [{ key: 'neg', label: 'Allow negative', datatype: 'boolean', value: false }],
  db_connection: '{"host":"db","port":5432}',
  created_at: '2024-01-01T00:00:00Z',
};

function provider(opts: { max: number | null; count: number }) {
  return {
    getOne: vi.fn(async (resource: string) =>
      resource === 'clusters' ? { data: { id: 'c1', name: 'Andaman', max_license_bu: opts.max } } : { data: bu },
    ),
    getList: vi.fn(async (resource: string) =>
      resource === 'clusters' ? { data: [{ id: 'c1', name: 'Andaman' }], total: 1 } : { data: [], total: opts.count },
    ),
    create: vi.fn(async () => ({ data: { id: 'new-bu' } })),
    update: vi.fn(async (_: string, p: { data: object }) => ({ data: { ...bu, ...p.data } })),
    getCurrencies: vi.fn(async () => [
      {
        id: 'cur1',
        code: 'THB',
        name: 'Thai Baht',
        symbol: '฿',
        decimal_places: 2,
        description: null,
        is_active: true,
      },
    ]),
    getBusinessUnitUsers: vi.fn(async () => []),
    getClusterUsers: vi.fn(async () => []),
  };
}

function renderAt(path: string, dataProvider: ReturnType<typeof provider>) {
  const dp = testDataProvider(dataProvider as never);
  const page = (element: React.ReactNode) => (
    <AdminContext dataProvider={dp} authProvider={authProvider} i18nProvider={i18nProvider}>
      <ResourceContextProvider value="business-units">{element}</ResourceContextProvider>
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      { path: '/business-units/create', element: page(<BusinessUnitCreate />) },
      { path: '/business-units/:id/edit', element: page(<BusinessUnitEdit />) },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => localStorage.clear());

describe('business unit create', { timeout: 30_000 }, () => {
  it('pre-selects the cluster from the query and blocks at the licence cap with no create', async () => {
    const dp = provider({ max: 2, count: 2 });
    renderAt('/business-units/create?cluster_id=c1', dp);
    fireEvent.change(await screen.findByLabelText(/^Code/), { target: { value: 'NEW' } });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'New BU' } });
    fireEvent.click(screen.getByRole('button', { name: /create/i }));
    expect(
      (await screen.findAllByText('Cannot create business unit: cluster has reached its license limit (2/2)')).length,
    ).toBeGreaterThan(0);
    expect(dp.getOne).toHaveBeenCalledWith('clusters', expect.objectContaining({ id: 'c1' }));
    expect(dp.create).not.toHaveBeenCalled();
  });

  it('creates below the cap with the number-format defaults and lands on the edit page', async () => {
    const dp = provider({ max: 5, count: 1 });
    const router = renderAt('/business-units/create?cluster_id=c1', dp);
    fireEvent.change(await screen.findByLabelText(/^Code/), { target: { value: 'NEW' } });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'New BU' } });
    fireEvent.click(screen.getByRole('button', { name: /create/i }));
    await waitFor(() => expect(dp.create).toHaveBeenCalled());
    const data = (dp.create.mock.calls[0] as unknown as [string, { data: Record<string, unknown> }])[1].data;
    expect(data).toMatchObject({
      cluster_id: 'c1',
      code: 'NEW',
      name: 'New BU',
      amount_format: { locales: 'th-TH', minimumIntegerDigits: 2 },
      perpage_format: { default: 10 },
      config: [],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/business-units/new-bu/edit'));
  });
});

describe('business unit edit', { timeout: 30_000 }, () => {
  it('shows formats as JSON text, config read-only in view mode and db_connection pretty-printed', async () => {
    renderAt('/business-units/b1/edit', provider({ max: null, count: 0 }));
    expect(await screen.findByTestId('config-table')).toHaveTextContent('Allow negative');
    expect(screen.getByTestId('db-connection').querySelector('textarea')!.value).toBe(
      '{\n  "host": "db",\n  "port": 5432\n}',
    );
    expect(screen.getByDisplayValue('raw text')).toBeInTheDocument();
    expect(document.querySelectorAll('[data-testid^="bu-section-"]')).toHaveLength(9);
  });

  it('edits config inline, drops incomplete entries and sends db_connection back unchanged', async () => {
    const dp = provider({ max: null, count: 0 });
    renderAt('/business-units/b1/edit', dp);
    fireEvent.click(await screen.findByTestId('mode-edit'));
    fireEvent.click(await screen.findByTestId('config-add'));
    await waitFor(() => expect(screen.getAllByTestId('config-row')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('config-add'));
    await waitFor(() => expect(screen.getAllByTestId('config-row')).toHaveLength(3));
    const keys = screen.getAllByLabelText('Key');
    const labels = screen.getAllByLabelText('Label');
    fireEvent.change(keys[1]!, { target: { value: 'only_key' } });
    fireEvent.change(keys[2]!, { target: { value: 'k3' } });
    fireEvent.change(labels[2]!, { target: { value: 'L3' } });
    // delete the first row with no confirmation
    fireEvent.click(screen.getAllByTestId('config-delete')[0]!);
    await waitFor(() => expect(screen.getAllByTestId('config-row')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('mode-save'));
    await waitFor(() => expect(dp.update).toHaveBeenCalled());
    const data = (dp.update.mock.calls[0] as unknown as [string, { data: Record<string, unknown> }])[1].data;
    expect(data.config).toEqual([{ key: 'k3', label: 'L3', datatype: 'string', value: '' }]);
    expect(data.db_connection).toBe('{"host":"db","port":5432}');
    expect(data.amount_format).toEqual({ locales: 'en-US', minimumIntegerDigits: 1 });
    expect(data.quantity_format).toBe('raw text');
    expect(data.perpage_format).toEqual({ default: 10 });
    expect(data.calculation_method).toBe('fifo');
  });
});
