import type React from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import {
  AdminContext,
  HttpError,
  Notification,
  ResourceContextProvider,
  testDataProvider,
  type AuthProvider,
} from 'react-admin';
import { i18nProvider } from '../../i18n';
import { createQueryClient } from '../../dataProvider/queryClient';
import { PREVIEW_NUMBER } from '../../lib/jsonFormat';
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
  is_hq: true,
  is_active: true,
  users_count: 4,
  max_license_users: 10,
  amount_format: { locales: 'en-US', minimumIntegerDigits: 1 },
  perpage_format: { default: 25 },
  quantity_format: 'raw text',
  recipe_format: null,
  calculation_method: 'fifo',
  timezone: 'Asia/Bangkok',
  default_currency_id: 'cur1',
  defaultCurrency: { id: 'cur1', code: 'THB', name: 'Thai Baht', symbol: '฿' },
  config: [],
  db_connection: null,
  created_at: '2024-01-01T00:00:00Z',
};

function renderEdit(update = vi.fn(async (_: string, p: { data: object }) => ({ data: { ...bu, ...p.data } }))) {
  const dp = testDataProvider({
    getOne: vi.fn(async () => ({ data: bu })),
    getList: vi.fn(async () => ({ data: [{ id: 'c1', name: 'Andaman' }], total: 1 })),
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
    update,
  } as never);
  const page = (element: React.ReactNode) => (
    <AdminContext
      dataProvider={dp}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={createQueryClient()}
    >
      <ResourceContextProvider value="business-units">{element}</ResourceContextProvider>
      <Notification />
    </AdminContext>
  );
  const router = createMemoryRouter([{ path: '/business-units/:id/edit', element: page(<BusinessUnitEdit />) }], {
    initialEntries: ['/business-units/b1/edit'],
  });
  render(<RouterProvider router={router} />);
  return { update };
}

const savedData = (update: ReturnType<typeof vi.fn>) =>
  (update.mock.calls.at(-1) as unknown as [string, { data: Record<string, unknown> }])[1].data;

beforeEach(() => localStorage.clear());

describe('business unit page', { timeout: 30_000 }, () => {
  it('sums the unit up above its fields, which sit in nine always-open sections', async () => {
    renderEdit();
    const summary = await screen.findByTestId('bu-summary');
    expect(summary).toHaveTextContent('Beach Resort');
    expect(summary).toHaveTextContent('BU-1');
    expect(summary).toHaveTextContent('Andaman');
    expect(summary).toHaveTextContent('4/10');
    expect(summary).toHaveTextContent('THB — Thai Baht');
    expect(summary).toHaveTextContent('FIFO');
    expect(summary).toHaveTextContent('Headquarters');
    // All nine sections are open, each a titled region: no field waits behind a fold.
    const sections = screen.getAllByRole('region');
    expect(sections.map((r) => r.getAttribute('data-testid'))).toEqual(
      [
        'general',
        'hotel',
        'company',
        'tax',
        'datetime',
        'number_formats',
        'calculation',
        'config',
        'db_connection',
      ].map((id) => `bu-section-${id}`),
    );
    expect(within(screen.getByTestId('bu-section-db_connection')).getByTestId('db-connection')).toBeVisible();
    expect(document.querySelector('.MuiAccordion-root')).toBeNull();
  });

  it('edits a number format through its parts with a live preview, and saves the JSON', async () => {
    const { update } = renderEdit();
    fireEvent.click(await screen.findByTestId('mode-edit'));
    const amount = screen.getByTestId('number-format-amount_format');
    const preview = within(amount).getByTestId('number-format-preview-amount_format');
    expect(preview).toHaveTextContent(
      new Intl.NumberFormat('en-US', { minimumIntegerDigits: 1 }).format(PREVIEW_NUMBER),
    );
    fireEvent.change(within(amount).getByLabelText('Maximum decimals'), { target: { value: '0' } });
    await waitFor(() => expect(preview).toHaveTextContent('1,234,568'));
    // The page size has its own editor and preview.
    expect(screen.getByTestId('number-format-preview-perpage_format')).toHaveTextContent('25 rows per page');
    fireEvent.click(screen.getByTestId('mode-save'));
    await waitFor(() => expect(update).toHaveBeenCalled());
    expect(savedData(update).amount_format).toEqual({
      locales: 'en-US',
      minimumIntegerDigits: 1,
      maximumFractionDigits: 0,
    });
    expect(savedData(update).quantity_format).toBe('raw text');
  });

  it('checks raw JSON before saving: invalid text blocks the save and is shown against the field', async () => {
    const { update } = renderEdit();
    fireEvent.click(await screen.findByTestId('mode-edit'));
    const amount = screen.getByTestId('number-format-amount_format');
    fireEvent.click(within(amount).getByLabelText('Edit as JSON'));
    const raw = within(amount).getByRole('textbox', { name: 'Amount Format' });
    fireEvent.change(raw, { target: { value: '{"locales": "en-US",' } });
    fireEvent.click(screen.getByTestId('mode-save'));
    expect(await within(amount).findByText('Not valid JSON: correct it before saving')).toBeInTheDocument();
    expect(update).not.toHaveBeenCalled();
    // Intl refuses these options: also blocked, with the reason.
    fireEvent.change(raw, { target: { value: '{"locales": "en-US", "minimumIntegerDigits": 99}' } });
    fireEvent.click(screen.getByTestId('mode-save'));
    expect((await within(amount).findAllByText('These options cannot format a number')).length).toBeGreaterThan(0);
    expect(update).not.toHaveBeenCalled();
  });

  it('marks the section of a field the server refused, with its message under the field', async () => {
    const update = vi.fn(async () => {
      throw new HttpError('/body/hotel_email must match format "email"', 400, {
        errors: { hotel_email: 'must match format "email"' },
      });
    });
    renderEdit(update);
    fireEvent.click(await screen.findByTestId('mode-edit'));
    fireEvent.click(screen.getByTestId('mode-save'));
    const hotel = screen.getByTestId('bu-section-hotel');
    expect(await within(hotel).findByText('must match format "email"')).toBeInTheDocument();
    expect(within(hotel).getByTitle('This section has errors')).toBeInTheDocument();
    expect(
      await screen.findByText('Business unit BU-1 was not saved: Email: must match format "email"'),
    ).toBeInTheDocument();
  });
});
