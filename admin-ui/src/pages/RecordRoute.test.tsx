import type React from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, useGetOne, type DataProvider } from 'react-admin';
import { RecordRoute } from './RecordRoute';
import { testQueryClient } from '../test/renderWithAdmin';

const PERSON = '0b5c6f4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
const SERVICE = '1c6d7a5f-2e3b-4d4c-8f9a-8b7c6d5e4f3a';
const NOBODY = '2d7e8b6a-3f4c-4e5d-9a0b-9c8d7e6f5a4b';

const notFound = () => Promise.reject(Object.assign(new Error('Not found'), { status: 404, body: {} }));

/** The people's read answers only the person; the service accounts' answers only the service account. */
const dataProvider = {
  getOne: (_resource: string, { id }: { id: string }) =>
    id === PERSON ? Promise.resolve({ data: { id, username: 'somchai.j' } }) : notFound(),
  getServiceAccount: (id: string) => (id === SERVICE ? Promise.resolve({ id, username: 'night-audit' }) : notFound()),
} as unknown as DataProvider;

/** The user page at `/users/:id` behind its route guard, with react-admin's loader asking for that id. */
function openUser(id: string) {
  const UserPage = () => {
    const { data } = useGetOne<{ id: string; username: string }>('users', { id }, { retry: false });
    return <p>{data ? `person ${data.username}` : 'loading'}</p>;
  };
  const queryClient = testQueryClient();
  const inAdmin = (el: React.ReactNode) => (
    <AdminContext dataProvider={dataProvider} queryClient={queryClient}>
      {el}
    </AdminContext>
  );
  const router = createMemoryRouter(
    [
      {
        path: '/users/:id',
        element: inAdmin(
          <RecordRoute resource="users">
            <UserPage />
          </RecordRoute>,
        ),
      },
      { path: '/service-accounts/:id', element: <p>service account page</p> },
    ],
    { initialEntries: [`/users/${id}`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('a record route of an account', { timeout: 20_000 }, () => {
  it('shows the page of a person', async () => {
    openUser(PERSON);
    expect(await screen.findByText('person somchai.j')).toBeInTheDocument();
  });

  it('opens the service account page for an account the people’s pages do not have but the service accounts do', async () => {
    const router = openUser(SERVICE);
    expect(await screen.findByText('service account page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/service-accounts/${SERVICE}`);
  });

  it('says Not found for an id that is neither', async () => {
    openUser(NOBODY);
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });
});
