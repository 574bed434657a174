import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithAdmin } from '../test/renderWithAdmin';
import { DOMAIN_DASHBOARDS } from './domains';
import { SAMPLE_CONTENT } from './sampleContent';
import { DomainDashboardPage } from './DomainDashboardPage';

// The charts cannot measure themselves in jsdom; what matters here is the tile around them.
vi.mock('@mui/x-charts/BarChart', () => ({ BarChart: () => <div data-testid="bar-chart" /> }));
vi.mock('@mui/x-charts/PieChart', () => ({ PieChart: () => <div data-testid="pie-chart" /> }));

const feeds = {
  getMyPendingCount: vi.fn().mockResolvedValue({ pending: 2 }),
  getApprovalSummary: vi.fn().mockResolvedValue({ groups: [] }),
  getPendingApprovals: vi.fn().mockResolvedValue({ groups: [] }),
};

describe('domain dashboards', { timeout: 30_000 }, () => {
  for (const domain of DOMAIN_DASHBOARDS) {
    it(`marks every tile of fixed sample values on ${domain} as sample data, and no live one`, async () => {
      renderWithAdmin(<DomainDashboardPage domain={domain} />, feeds);
      const sample = SAMPLE_CONTENT[domain];
      const expected = sample.kpis.length + 1 + (sample.recent ? 1 : 0);
      const tiles = await screen.findAllByTestId('sample-tile');
      expect(tiles).toHaveLength(expected);
      for (const tile of tiles) expect(within(tile).getByTestId('sample-mark')).toHaveTextContent('Sample data');
      // The live feeds (pending counts, approvals) carry no sample mark.
      for (const live of screen.queryAllByTestId(/^(pending-count|approval)-/))
        expect(within(live).queryByTestId('sample-mark')).toBeNull();
    });
  }

  it('writes sample amounts in the one amount format (currency code, Intl)', async () => {
    renderWithAdmin(<DomainDashboardPage domain="po" />, feeds);
    expect(await screen.findByText('THB 3,912,400.00')).toBeInTheDocument();
    expect(screen.getByText('THB 96,500.00')).toBeInTheDocument();
  });
});
