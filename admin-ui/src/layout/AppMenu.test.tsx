import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { AdminContext, ResourceDefinitionContextProvider, testDataProvider, type AuthProvider } from 'react-admin';
import type { Grants } from '../types';
import { canAccessWith } from '../auth/permissions';
import { i18nProvider } from '../i18n';
import { RESOURCES } from '../resources/registry';
import { AppMenu } from './AppMenu';

const definitions = Object.fromEntries(RESOURCES.map((r) => [r.name, { name: r.name, hasList: true, icon: r.icon }]));

function renderMenu(grants: Grants) {
  /** What the menu was told, resource by resource, once each check has answered. */
  const answers = new Map<string, boolean>();
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (params) => {
      const allowed = canAccessWith(grants, params);
      answers.set(params.resource, allowed);
      return allowed;
    },
  };
  render(
    <AdminContext dataProvider={testDataProvider()} authProvider={authProvider} i18nProvider={i18nProvider}>
      <ResourceDefinitionContextProvider definitions={definitions}>
        <AppMenu />
      </ResourceDefinitionContextProvider>
    </AdminContext>,
  );
  return { answers };
}

const resourceItems = ['Clusters', 'Business units', 'Print template mappings'];

describe('menu', { timeout: 20_000 }, () => {
  it('draws every registered resource the caller may list, in registry order, under its label', async () => {
    renderMenu({ platform: ['cluster.read'], clusters: {}, is_super_admin: false });
    // Each entry appears once its access check answers; on a busy machine that takes more than a second.
    await waitFor(
      () =>
        expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(
          expect.arrayContaining(resourceItems),
        ),
      { timeout: 5000 },
    );
    const names = screen.getAllByRole('menuitem').map((i) => i.textContent);
    expect(names.filter((n) => resourceItems.includes(n ?? ''))).toEqual(resourceItems);
  });

  it('leaves out the resources whose list the rules refuse', async () => {
    renderMenu({ platform: [], clusters: {}, is_super_admin: false });
    expect(await screen.findByRole('menuitem', { name: 'Print template mappings' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Clusters' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Business units' })).not.toBeInTheDocument();
  });

  it('shows Users with user.read, and the audit log with user.read or cluster.read on any cluster', async () => {
    renderMenu({ platform: ['user.read'], clusters: {}, is_super_admin: false });
    expect(await screen.findByRole('menuitem', { name: 'Users' })).toBeInTheDocument();
    expect(await screen.findByRole('menuitem', { name: 'Service accounts' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/service-accounts$/),
    );
    expect(await screen.findByRole('menuitem', { name: 'Audit log' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/audit-log$/),
    );
  });

  it('shows the audit log to a reader of one cluster, without Users', async () => {
    renderMenu({ platform: [], clusters: { c1: ['cluster.read'] }, is_super_admin: false });
    expect(await screen.findByRole('menuitem', { name: 'Audit log' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Users' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Service accounts' })).not.toBeInTheDocument();
  });

  it('leaves out the audit log without either grant', async () => {
    const { answers } = renderMenu({ platform: [], clusters: { c1: ['cluster.update'] }, is_super_admin: false });
    expect(await screen.findByRole('menuitem', { name: 'Print template mappings' })).toBeInTheDocument();
    // The menu has asked about the audit log and been refused.
    await waitFor(() => expect(answers.get('audit-log')).toBe(false));
    expect(screen.queryByRole('menuitem', { name: 'Audit log' })).not.toBeInTheDocument();
  });
});
