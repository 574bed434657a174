import type React from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import {
  AdminContext,
  Notification,
  ResourceContextProvider,
  testDataProvider,
  type AuthProvider,
  type DataProvider,
} from 'react-admin';
import { i18nProvider } from '../../i18n';
import type { Grants, UserAccount } from '../../types';
import { canAccessWith } from '../../auth/permissions';
import { createQueryClient } from '../../dataProvider/queryClient';

export const SUPER: Grants = { platform: [], clusters: {}, is_super_admin: true };
export const USER_ADMIN: Grants = {
  platform: ['user.read', 'user.manage', 'grant.manage', 'cluster.read'],
  clusters: {},
  is_super_admin: false,
};
export const USER_READER: Grants = { platform: ['user.read'], clusters: {}, is_super_admin: false };

export const account = (id: string, extra: Partial<UserAccount> = {}): UserAccount => ({
  id,
  username: `user.${id}`,
  email: `${id}@example.com`,
  firstname: 'Somchai',
  middlename: null,
  lastname: `Jaidee ${id}`,
  display_name: `Somchai Jaidee ${id}`,
  is_active: true,
  is_super_admin: false,
  must_change_password: false,
  sign_in_delayed: false,
  grant_count: 1,
  last_sign_in_at: '2026-11-20T07:45:00.000Z',
  created_at: '2026-11-01T08:30:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
  ...extra,
});

/**
 * `answers`, when given, records each access check as it is answered (`edit user-grants` → false), so a test can
 * wait until a screen has been told what the caller may do before it asserts what is not shown.
 */
export function authFor(grants: Grants, answers?: Map<string, boolean>): AuthProvider {
  return {
    login: () => Promise.resolve(),
    logout: () => Promise.resolve(),
    checkAuth: () => Promise.resolve(),
    checkError: () => Promise.resolve(),
    getPermissions: () => Promise.resolve(grants),
    canAccess: (params) => {
      const allowed = canAccessWith(grants, params);
      answers?.set(`${params.action} ${params.resource}`, allowed);
      return Promise.resolve(allowed);
    },
  };
}

/** Renders console routes with stub data provider methods (custom ones included), the grants given and notifications. */
export function renderRoutes(
  path: string,
  grants: Grants,
  provider: object,
  routes: { path: string; resource?: string; element: React.ReactNode }[],
  answers?: Map<string, boolean>,
) {
  // The stubs stand in for the data provider's methods; react-admin's test provider answers the rest with an error.
  const dp: DataProvider = Object.assign(testDataProvider(), provider);
  const page = (element: React.ReactNode, resource?: string) => (
    <AdminContext
      dataProvider={dp}
      authProvider={authFor(grants, answers)}
      i18nProvider={i18nProvider}
      queryClient={createQueryClient()}
    >
      {resource ? <ResourceContextProvider value={resource}>{element}</ResourceContextProvider> : element}
      <Notification />
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      ...routes.map((r) => ({ path: r.path, element: page(r.element, r.resource) })),
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}
