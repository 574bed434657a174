import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, fireEvent } from '@testing-library/react';
import { AdminContext, testDataProvider, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import type { Grants } from '../../types';
import { canAccessWith } from '../../auth/permissions';
import { BusinessUnitList } from './BusinessUnitList';

const rows = [
  {
    id: 'b1',
    cluster_id: 'c1',
    cluster_name: 'Andaman',
    code: 'BU-1',
    name: 'Beach',
    alias_name: 'BCH',
    is_active: true,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-03-01T00:00:00Z',
    updated_by_name: 'Editor',
  },
  {
    id: 'b2',
    cluster_id: 'c2',
    cluster_name: 'Bangkok',
    code: 'BU-2',
    name: 'City',
    alias_name: null,
    is_active: false,
    created_at: '2024-01-01T00:00:00Z',
  },
];

function setup(perms: Grants) {
  const getList = vi.fn(async () => ({ data: rows, total: 2 }));
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (params) => canAccessWith(perms, params),
  };
  render(
    <AdminContext
      dataProvider={testDataProvider({ getList } as never)}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
    >
      <BusinessUnitList />
    </AdminContext>,
  );
  return { getList };
}

beforeEach(() => localStorage.clear());

describe('business unit list', { timeout: 20_000 }, () => {
  it('shows the specified columns in order', async () => {
    setup({ platform: ['cluster.read'], clusters: {}, is_super_admin: false });
    await screen.findByText('BU-1', {}, { timeout: 5000 });
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.trim());
    // The first column holds the select-all checkbox of the bulk actions.
    expect(headers.slice(1, 9)).toEqual([
      'Logo',
      'Code',
      'Name',
      'Alias Name',
      'Cluster',
      'Active',
      'Created',
      'Updated',
    ]);
    expect(screen.getByText('Editor')).toBeInTheDocument();
  });

  it('persists under the business_units keys', async () => {
    const { getList } = setup({ platform: ['cluster.read'], clusters: {}, is_super_admin: false });
    await screen.findByText('BU-1', {}, { timeout: 5000 });
    fireEvent.click(screen.getByText('Code'));
    await waitFor(() => expect(localStorage.getItem('sort_business_units')).toBe('"code:asc"'));
    expect((getList.mock.calls.at(-1) as unknown as [string, unknown])[1]).toMatchObject({
      sort: { field: 'code', order: 'ASC' },
    });
  });

  it('gates row actions on the parent cluster of each row', async () => {
    setup({ platform: ['cluster.read'], clusters: { c1: ['cluster.update'] }, is_super_admin: false });
    await screen.findByText('BU-1', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('row-actions-b1'));
    expect(await screen.findByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    fireEvent.click(screen.getByTestId('row-actions-b2'));
    // Read views: a reader's row menu opens the record (it used to say "No actions available").
    expect(await screen.findByRole('menuitem', { name: 'Open' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
