import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, HttpError, ResourceContextProvider, testDataProvider, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import type { Grants } from '../../types';
import { canAccessWith } from '../../auth/permissions';
import { createQueryClient } from '../../dataProvider/queryClient';
import { RESOURCES } from '../registry';
import { ClusterShow } from './ClusterEdit';
import { ClusterList } from './ClusterList';
import { BusinessUnitShow } from '../business-units/BusinessUnitEdit';

const VIEWER: Grants = { platform: ['cluster.read'], clusters: {}, is_super_admin: false };
const EDITOR_A: Grants = {
  platform: [],
  clusters: { 'cl-a': ['cluster.read', 'cluster.update', 'cluster.create', 'cluster.delete'] },
  is_super_admin: false,
};

const cluster = {
  id: 'c1',
  code: 'CL-A',
  name: 'Andaman',
  alias_name: 'AND',
  max_license_bu: 3,
  is_active: true,
  created_at: '2024-01-01T00:00:00Z',
};
const bu = {
  id: 'b1',
  cluster_id: 'c1',
  cluster_name: 'Andaman',
  code: 'BU-1',
  name: 'Beach',
  is_active: true,
  users_count: 2,
  max_license_users: 5,
};
const member = {
  id: 'm1',
  user_id: 'u1',
  cluster_id: 'c1',
  role: 'user',
  is_active: true,
  parent_bu_id: null,
  username: 'somchai',
  email: 's@x',
  userInfo: null,
};

/** `answers`, when given, records each access check as it is answered (`create business-units` → false). */
function authFor(grants: Grants, answers?: Map<string, boolean>): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (params) => {
      const allowed = canAccessWith(grants, params);
      answers?.set(`${params.action} ${params.resource}`, allowed);
      return allowed;
    },
  };
}

function renderRoutes(path: string, grants: Grants, provider: Record<string, unknown>, answers?: Map<string, boolean>) {
  const dp = testDataProvider(provider);
  const page = (resource: string, element: React.ReactNode) => (
    <AdminContext
      dataProvider={dp}
      authProvider={authFor(grants, answers)}
      i18nProvider={i18nProvider}
      queryClient={createQueryClient()}
    >
      <ResourceContextProvider value={resource}>{element}</ResourceContextProvider>
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      { path: '/clusters', element: page('clusters', <ClusterList />) },
      { path: '/clusters/:id', element: page('clusters', <ClusterShow />) },
      { path: '/business-units/:id', element: page('business-units', <BusinessUnitShow />) },
      { path: '/access-denied', element: <p>access denied screen</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => localStorage.clear());

describe('read views', { timeout: 30_000 }, () => {
  it('every resource has a read view, and a reader may open it', () => {
    // Accounts are read with user.read, the other resources with cluster.read.
    const reader: Grants = { ...VIEWER, platform: ['cluster.read', 'user.read'] };
    for (const r of RESOURCES) {
      expect(r.show, r.name).toBeDefined();
      expect(
        canAccessWith(reader, { action: 'show', resource: r.name, record: { id: 'c1', cluster_id: 'c1' } }),
        r.name,
      ).toBe(true);
    }
  });

  it('when a viewer opens a cluster, then every card shows, read-only', async () => {
    const answers = new Map<string, boolean>();
    renderRoutes(
      '/clusters/c1',
      VIEWER,
      {
        getOne: vi.fn(async () => ({ data: cluster })),
        getList: vi.fn(async () => ({ data: [bu], total: 1 })),
        getClusterUsers: vi.fn(async () => [member]),
      },
      answers,
    );
    expect(await screen.findByDisplayValue('Andaman')).toHaveAttribute('readonly');
    expect(screen.getByTestId('cluster-edit')).toHaveAttribute('data-mode', 'view');
    const buCard = screen.getByTestId('cluster-bu-card');
    expect(await within(buCard).findByText('Beach')).toBeInTheDocument();
    expect(within(buCard).getByRole('link', { name: 'BU-1' })).toHaveAttribute('href', '/business-units/b1');
    const usersCard = screen.getByTestId('cluster-users-card');
    expect(await within(usersCard).findByText('somchai')).toBeInTheDocument();
    // The read-only hint means the cluster's edit check has answered no (the users card reads that same answer).
    await waitFor(() =>
      expect(screen.getByTestId('branding-card')).toHaveTextContent('Images of this record, shown read-only.'),
    );
    // The business-units card has been told it may neither add nor edit.
    await waitFor(() => {
      expect(answers.get('create business-units')).toBe(false);
      expect(answers.get('edit business-units')).toBe(false);
    });
    // Nothing to change: no Edit, no Add, no Remove, no Upload.
    expect(screen.queryByTestId('mode-edit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bu-add')).not.toBeInTheDocument();
    expect(screen.queryByTestId('cluster-user-add')).not.toBeInTheDocument();
    expect(screen.queryByTestId('cluster-user-remove')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(within(buCard).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('when the caller may edit, then Edit is one click away on the read view', async () => {
    renderRoutes(
      '/clusters/c1',
      { platform: [], clusters: {}, is_super_admin: true },
      {
        getOne: vi.fn(async () => ({ data: cluster })),
        getList: vi.fn(async () => ({ data: [], total: 0 })),
        getClusterUsers: vi.fn(async () => []),
      },
    );
    fireEvent.click(await screen.findByTestId('mode-edit'));
    await waitFor(() => expect(screen.getByTestId('cluster-edit')).toHaveAttribute('data-mode', 'edit'));
    expect(screen.getByDisplayValue('Andaman')).not.toHaveAttribute('readonly');
  });

  it('when a row is clicked, then its record opens; the row menu does not', async () => {
    const router = renderRoutes('/clusters', VIEWER, {
      getList: vi.fn(async () => ({ data: [{ ...cluster, id: 'a', code: 'C-a' }], total: 1 })),
    });
    fireEvent.click(await screen.findByTestId('row-actions-a'));
    expect(await screen.findByRole('menuitem', { name: 'Open' })).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/clusters');
    fireEvent.click(within(screen.getByTestId('list-row')).getByText('Andaman'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/clusters/a'));
  });

  it('when the server answers 404 for a record (a cluster the caller cannot see), then the Not-found page shows, which says nothing of the record', async () => {
    const getOne = vi.fn(async () => {
      throw new HttpError('Business unit not found', 404, { detail: 'Business unit not found' });
    });
    const router = renderRoutes('/business-units/b-in-cl-b', EDITOR_A, { getOne });
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/business-units/b-in-cl-b');
    expect(screen.queryByTestId('error-state')).not.toBeInTheDocument();
    // A 4xx is the answer: it is not asked again.
    expect(getOne).toHaveBeenCalledTimes(1);
  });

  it('when the server answers 403 for a record, then the same access-denied screen shows', async () => {
    const router = renderRoutes('/clusters/c9', VIEWER, {
      getOne: vi.fn(async () => {
        throw new HttpError('Missing permission cluster.read', 403, {});
      }),
    });
    expect(await screen.findByText('access denied screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/access-denied');
  });
});
