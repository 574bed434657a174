import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, HttpError, ResourceContextProvider, testDataProvider, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import { ClusterEdit } from './ClusterEdit';
import { ClusterCreate } from './ClusterCreate';

const record = {
  id: 'c1',
  code: 'CL-A',
  name: 'Andaman',
  alias_name: 'AND',
  max_license_bu: 2,
  is_active: true,
  created_at: '2024-01-01T00:00:00Z',
};

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

function renderAt(path: string, dataProvider: Record<string, unknown>) {
  const dp = testDataProvider(dataProvider);
  const page = (element: React.ReactNode) => (
    <AdminContext dataProvider={dp} authProvider={authProvider} i18nProvider={i18nProvider}>
      <ResourceContextProvider value="clusters">{element}</ResourceContextProvider>
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      { path: '/clusters/create', element: page(<ClusterCreate />) },
      { path: '/clusters/:id/edit', element: page(<ClusterEdit />) },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

function provider() {
  let current = { ...record };
  return {
    getOne: vi.fn(async () => ({ data: current })),
    getList: vi.fn(async () => ({ data: [], total: 0 })),
    update: vi.fn(async (_: string, params: { data: typeof record }) => {
      current = { ...current, ...params.data };
      return { data: current };
    }),
    create: vi.fn(async () => ({ data: { ...record, id: 'new-id' } })),
    getClusterUsers: vi.fn(async () => []),
  };
}

beforeEach(() => localStorage.clear());

describe('cluster edit page', { timeout: 20_000 }, () => {
  it('starts in view mode; Cancel restores the remembered values with no call', async () => {
    const dp = provider();
    renderAt('/clusters/c1/edit', dp);
    const name = await screen.findByDisplayValue<HTMLInputElement>('Andaman');
    expect(name).toHaveAttribute('readonly');
    fireEvent.click(screen.getByTestId('mode-edit'));
    await waitFor(() => expect(name).not.toHaveAttribute('readonly'));
    fireEvent.change(name, { target: { value: 'Changed' } });
    expect(name.value).toBe('Changed');
    fireEvent.click(screen.getByTestId('mode-cancel'));
    await waitFor(() => expect(name.value).toBe('Andaman'));
    expect(name).toHaveAttribute('readonly');
    expect(dp.update).not.toHaveBeenCalled();
  });

  it('Save Changes sends the update, re-fetches and returns to view', async () => {
    const dp = provider();
    renderAt('/clusters/c1/edit', dp);
    const name = await screen.findByDisplayValue<HTMLInputElement>('Andaman');
    fireEvent.click(screen.getByTestId('mode-edit'));
    fireEvent.change(name, { target: { value: 'Renamed' } });
    const fetchesBefore = dp.getOne.mock.calls.length;
    fireEvent.click(screen.getByTestId('mode-save'));
    await waitFor(() => expect(dp.update).toHaveBeenCalledTimes(1));
    expect(dp.update.mock.calls[0]![1]).toMatchObject({
      id: 'c1',
      data: { name: 'Renamed', code: 'CL-A', max_license_bu: 2 },
    });
    await waitFor(() => expect(dp.getOne.mock.calls.length).toBeGreaterThan(fetchesBefore));
    await waitFor(() => expect(screen.getByTestId('cluster-edit')).toHaveAttribute('data-mode', 'view'));
    expect(await screen.findByDisplayValue('Renamed')).toHaveAttribute('readonly');
  });

  it('on a stale save (412) shows the stored version and returns to view', async () => {
    const dp = provider();
    dp.update.mockRejectedValueOnce(new HttpError('Precondition Failed', 412, {}));
    renderAt('/clusters/c1/edit', dp);
    const name = await screen.findByDisplayValue<HTMLInputElement>('Andaman');
    fireEvent.click(screen.getByTestId('mode-edit'));
    fireEvent.change(name, { target: { value: 'Mine' } });
    dp.getOne.mockResolvedValue({ data: { ...record, name: 'Theirs' } });
    fireEvent.click(screen.getByTestId('mode-save'));
    expect(await screen.findByRole('dialog', { name: 'Changed by someone else' })).toBeInTheDocument();
    expect(await screen.findByDisplayValue('Theirs')).toHaveAttribute('readonly');
    expect(screen.getByTestId('cluster-edit')).toHaveAttribute('data-mode', 'view');
  });

  it('guards unsaved edits when leaving the page', async () => {
    const router = renderAt('/clusters/c1/edit', provider());
    const name = await screen.findByDisplayValue<HTMLInputElement>('Andaman');
    fireEvent.click(screen.getByTestId('mode-edit'));
    fireEvent.change(name, { target: { value: 'Unsaved' } });
    await router.navigate('/clusters/create');
    expect(await screen.findByText('Unsaved changes')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/clusters/c1/edit'));
    expect(name.value).toBe('Unsaved');
    await waitFor(() => expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument());
    void router.navigate('/clusters/create');
    fireEvent.click((await screen.findByText('Leave')).closest('button')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/clusters/create'));
  });

  it('enables Add below the cap and links it to the BU create page with the cluster', async () => {
    const dp = provider();
    dp.getList.mockResolvedValue({ data: [{ id: 'b1', name: 'B', code: 'B' }], total: 1 } as never);
    renderAt('/clusters/c1/edit', dp);
    expect(await screen.findByText('1 of 2 licensed')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('bu-add')).toHaveAttribute('href'));
    expect(screen.getByTestId('bu-add')).toHaveAttribute('href', '/business-units/create?cluster_id=c1');
  });

  it('shows the BU licence indicator and disables Add at the cap', async () => {
    const dp = provider();
    dp.getList.mockResolvedValue({
      data: [
        { id: 'b1', name: 'B', code: 'B' },
        { id: 'b2', name: 'A', code: 'A' },
      ],
      total: 2,
    } as never);
    renderAt('/clusters/c1/edit', dp);
    expect(await screen.findByText('2 of 2 licensed')).toBeInTheDocument();
    expect(screen.getByTestId('bu-add')).toBeDisabled();
    expect(screen.getByTestId('bu-add')).not.toHaveAttribute('href');
    const rows = await screen.findAllByTestId('cluster-bu-row');
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('A'), expect.stringContaining('B')]);
  });
});

describe('cluster create page', { timeout: 20_000 }, () => {
  it('lands on the new cluster’s edit page', async () => {
    const dp = provider();
    const router = renderAt('/clusters/create', dp);
    fireEvent.change(await screen.findByLabelText(/Code/), { target: { value: 'CL-N' } });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'New cluster' } });
    fireEvent.click(screen.getByRole('button', { name: /create/i }));
    await waitFor(() => expect(dp.create).toHaveBeenCalled());
    expect((dp.create.mock.calls[0] as unknown as [string, unknown])[1]).toMatchObject({
      data: { code: 'CL-N', name: 'New cluster', is_active: true, max_license_bu: null, alias_name: null },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/clusters/new-id/edit'));
  });
});
