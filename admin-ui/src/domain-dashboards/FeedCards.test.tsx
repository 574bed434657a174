import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { ApprovalFeedCard, PendingCountCard } from './FeedCards';
import { renderWithAdmin } from '../test/renderWithAdmin';

const item = (doc_type: 'pr' | 'po' | 'sr', doc_no: string) => ({
  id: `${doc_no}-id`,
  doc_type,
  doc_no,
  doc_date: '2026-11-20',
  total_amount: 1500,
  currency_code: 'THB',
  workflow_current_stage: 'Department Head Approval',
  business_unit_id: 'bu',
  business_unit_name: 'Andaman Beach Resort',
  requestor_name: null,
});

const feed = {
  groups: [
    { doc_type: 'pr', count: 1, totals: [{ currency_code: 'THB', total_amount: 1500 }], items: [item('pr', 'PR-1')] },
    {
      doc_type: 'po',
      count: 2,
      totals: [
        { currency_code: 'THB', total_amount: 1500 },
        { currency_code: 'USD', total_amount: 250.25 },
      ],
      items: [
        item('po', 'PO-1'),
        {
          ...item('po', 'PO-2'),
          total_amount: 250.25,
          currency_code: 'USD',
          workflow_current_stage: 'Purchasing Manager Approval',
        },
      ],
    },
    { doc_type: 'sr', count: 0, totals: [], items: [] },
  ],
};

describe('domain dashboard feeds', () => {
  it('shows the caller’s pending count of the document type', async () => {
    const getMyPendingCount = vi.fn().mockResolvedValue({ pending: 3 });
    renderWithAdmin(<PendingCountCard doc="po" />, { getMyPendingCount });
    expect(await screen.findByText('3')).toBeInTheDocument();
    expect(getMyPendingCount).toHaveBeenCalledWith('purchase-orders');
  });

  it('when the count fails, then an error with a retry is shown', async () => {
    const getMyPendingCount = vi.fn().mockRejectedValue(new Error('down'));
    renderWithAdmin(<PendingCountCard doc="sr" />, { getMyPendingCount });
    expect(await screen.findByText('The count could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('on a type page, only that type’s pending approvals are listed', async () => {
    const getPendingApprovals = vi.fn().mockResolvedValue(feed);
    renderWithAdmin(<ApprovalFeedCard source="pending" docTypes={['po']} />, { getPendingApprovals });
    const group = await screen.findByTestId('approval-group-po');
    expect(within(group).getByText('PO-1')).toBeInTheDocument();
    expect(within(group).getByText('Department Head Approval')).toBeInTheDocument();
    expect(screen.queryByTestId('approval-group-pr')).toBeNull();
  });

  it('when documents of a type are in two currencies, then the group shows one total per currency', async () => {
    const getPendingApprovals = vi.fn().mockResolvedValue(feed);
    renderWithAdmin(<ApprovalFeedCard source="pending" docTypes={['po', 'sr']} />, { getPendingApprovals });
    expect(await screen.findByTestId('approval-total-po')).toHaveTextContent('Total THB 1,500.00 · USD 250.25'); // amounts: Intl with the currency code, one way everywhere
    expect(screen.queryByTestId('approval-total-sr')).toBeNull();
  });

  it('when nothing waits, then the empty state is shown', async () => {
    const getApprovalSummary = vi.fn().mockResolvedValue(feed);
    renderWithAdmin(<ApprovalFeedCard source="summary" docTypes={['sr']} />, { getApprovalSummary });
    expect(await screen.findByTestId('approval-empty')).toHaveTextContent('Nothing is waiting for your approval.');
  });
});
