import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { TestResolvePanel } from './TestResolvePanel';
import { renderWithAdmin } from '../../test/renderWithAdmin';

const documentTypes = [
  { code: 'PO', label: 'Purchase Order' },
  { code: 'GRN', label: 'Good Received Note' },
];

const candidate = (id: string, outcome: string, extra: Record<string, unknown> = {}) => ({
  id,
  report_template_id: '8a9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d',
  template_name: `Template ${id}`,
  display_label: null,
  is_default: false,
  display_order: 0,
  is_active: true,
  outcome,
  reason: `because ${outcome}`,
  ...extra,
});

const winner = {
  id: 'm-1',
  document_type: 'PO',
  report_template_id: '8a9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d',
  is_default: true,
  display_label: 'With signatures',
  display_order: 0,
  allow_business_unit: [],
  deny_business_unit: [],
  is_active: true,
  template_name: 'Purchase Order — standard',
  template_group: 'PO',
  explanation: [
    candidate('m-1', 'selected', { is_default: true, template_name: 'Purchase Order — standard' }),
    candidate('m-2', 'lower_rank', { display_order: 5 }),
    candidate('m-3', 'denied'),
  ],
};

async function resolveWith(resolvePrintTemplateMapping: ReturnType<typeof vi.fn>, buCode: string) {
  renderWithAdmin(<TestResolvePanel defaultDocumentType="PO" />, {
    getDocumentTypes: vi.fn().mockResolvedValue(documentTypes),
    resolvePrintTemplateMapping,
  });
  // The business unit is a combobox too now (picked from the BU list): the document type is named.
  await waitFor(() =>
    expect(screen.getByRole('combobox', { name: /^Document type/ })).toHaveTextContent('PO — Purchase Order'),
  );
  fireEvent.change(screen.getByLabelText('Business unit code'), { target: { value: ` ${buCode} ` } });
  fireEvent.click(screen.getByRole('button', { name: 'Resolve' }));
}

describe('TestResolvePanel', () => {
  it('when a mapping wins, then the winner and every candidate with its outcome are shown', async () => {
    const resolve = vi.fn().mockResolvedValue(winner);
    await resolveWith(resolve, 'BU-PKT');

    const won = await screen.findByTestId('resolve-winner');
    expect(resolve).toHaveBeenCalledWith({ document_type: 'PO', bu_code: 'BU-PKT', explain: true });
    expect(won).toHaveTextContent('Prints with: Purchase Order — standard');
    expect(won).toHaveTextContent('With signatures');
    const rows = screen.getAllByTestId('resolve-candidate');
    expect(rows.map((r) => r.getAttribute('data-outcome'))).toEqual(['selected', 'lower_rank', 'denied']);
    expect(within(rows[2] as HTMLElement).getByText('Denied')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('because lower_rank')).toBeInTheDocument();
  });

  it('when nothing permits the business unit, then the 404 is shown with the candidates and why they lost', async () => {
    const resolve = vi.fn().mockRejectedValue(
      new HttpError('No active mapping permits BU-X', 404, {
        status: 404,
        detail: 'No active mapping permits BU-X',
        candidates: [candidate('m-2', 'not_in_allow_list'), candidate('m-4', 'inactive', { is_active: false })],
      }),
    );
    await resolveWith(resolve, 'BU-X');

    expect(await screen.findByTestId('resolve-none')).toHaveTextContent(
      'No active mapping permits this business unit.',
    );
    expect(screen.queryByTestId('resolve-winner')).toBeNull();
    const rows = screen.getAllByTestId('resolve-candidate');
    expect(rows.map((r) => r.getAttribute('data-outcome'))).toEqual(['not_in_allow_list', 'inactive']);
    expect(within(rows[0] as HTMLElement).getByText('Not in allow list')).toBeInTheDocument();
  });

  it('when the business unit code is blank, then it is not sent; a server error is reported', async () => {
    const resolve = vi
      .fn()
      .mockRejectedValue(new HttpError('Bad Request', 400, { detail: 'document_type is required' }));
    await resolveWith(resolve, '');

    expect(await screen.findByTestId('resolve-error')).toHaveTextContent('document_type is required');
    expect(resolve).toHaveBeenCalledWith({ document_type: 'PO', explain: true });
  });
});
