import type React from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, testDataProvider, type AuthProvider } from 'react-admin';
import { RequireAccess } from './RequireAccess';

function renderGuarded(allowed: (p: { action: string; resource: string; record?: { id?: unknown } }) => boolean) {
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (p) => allowed(p),
  };
  const page = (el: React.ReactNode) => (
    <AdminContext dataProvider={testDataProvider()} authProvider={authProvider}>
      {el}
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      {
        path: '/clusters/:id/edit',
        element: page(
          <RequireAccess action="edit" resource="clusters" record={{ id: 'c1' }}>
            <p>secret form</p>
          </RequireAccess>,
        ),
      },
      { path: '/access-denied', element: <p>denied screen</p> },
    ],
    { initialEntries: ['/clusters/c1/edit'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('RequireAccess', { timeout: 20_000 }, () => {
  it('shows the page when the grant holds for the record', async () => {
    renderGuarded((p) => p.action === 'edit' && p.record?.id === 'c1');
    expect(await screen.findByText('secret form')).toBeInTheDocument();
  });
  it('sends a refused caller to access-denied without showing the page', async () => {
    const router = renderGuarded(() => false);
    expect(await screen.findByText('denied screen')).toBeInTheDocument();
    expect(screen.queryByText('secret form')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/access-denied');
  });
});
