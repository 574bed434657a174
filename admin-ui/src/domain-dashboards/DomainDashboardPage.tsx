import { Box, Card, CardContent, CardHeader, Chip, Grid, Stack, Typography, useTheme } from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { Title, useTranslate } from 'react-admin';
import type { DomainDashboard } from './domains';
import { ApprovalFeedCard, PendingCountCard } from './FeedCards';
import { useFormatters } from './format';
import { chartColors } from '../lib/palette';
import { FEEDS, SAMPLE_CONTENT, type SampleKpi } from './sampleContent';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { CardTable } from '../components/card-table/CardTable';
import * as domainMessages from './i18n';

// The domain dashboards' words load with their screen, not with the console's first download.
const MESSAGES = [domainMessages];

/** The visible mark of every tile that shows fixed sample figures rather than live data. */
const SampleChip = () => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color="warning"
      label={translate('domain_dashboards.sample')}
      data-testid="sample-mark"
    />
  );
};

const KpiTile = ({ kpi }: { kpi: SampleKpi }) => {
  const translate = useTranslate();
  const f = useFormatters();
  const show = (n: number) =>
    kpi.format === 'currency' ? f.amount(n) : kpi.format === 'percent' ? f.percent(n) : f.number(n);
  const up = (kpi.change ?? 0) > 0;
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid="sample-tile">
      <CardContent>
        <Stack direction="row" justifyContent="space-between" alignItems="flex-start" spacing={1}>
          <Typography variant="overline" color="text.secondary">
            {translate(`domain_dashboards.kpis.${kpi.key}`)}
          </Typography>
          <SampleChip />
        </Stack>
        <Typography variant="h5" component="p">
          {show(kpi.value)}
        </Typography>
        {kpi.change !== undefined ? (
          <Stack direction="row" alignItems="center" spacing={0.5} sx={{ color: up ? 'success.main' : 'error.main' }}>
            {up ? <ArrowUpwardIcon fontSize="small" /> : <ArrowDownwardIcon fontSize="small" />}
            <Typography variant="body2" component="span">
              {up ? '+' : ''}
              {kpi.format === 'currency' ? f.amount(kpi.change) : f.number(kpi.change)}
            </Typography>
          </Stack>
        ) : null}
      </CardContent>
    </Card>
  );
};

/** One domain dashboard: fixed sample figures, plus the live pending-count and approval feeds that belong to it. */
export const DomainDashboardPage = ({ domain }: { domain: DomainDashboard }) => (
  <ScreenMessages modules={MESSAGES}>
    <DomainDashboardContent domain={domain} />
  </ScreenMessages>
);

const DomainDashboardContent = ({ domain }: { domain: DomainDashboard }) => {
  const translate = useTranslate();
  const f = useFormatters();
  const theme = useTheme();
  const colors = chartColors(theme.palette.mode);
  const sample = SAMPLE_CONTENT[domain];
  const feeds = FEEDS[domain];
  const chartLabels = sample.chart.points.map((p) => translate(`domain_dashboards.${p.key}`));
  const chartValues = sample.chart.points.map((p) => p.value);

  return (
    <Box sx={{ mt: 2 }} data-testid={`domain-dashboard-${domain}`}>
      {/* The page title is the menu entry's label. */}
      <Title title={`app.menu.domains.${domain}`} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate(`app.menu.domains.${domain}`)}
      </Typography>

      {feeds.pendingCounts.length > 0 ? (
        <Grid container spacing={2} sx={{ mb: 2 }}>
          {feeds.pendingCounts.map((doc) => (
            <Grid key={doc} size={{ xs: 12, sm: 6, md: 4 }}>
              <PendingCountCard doc={doc} />
            </Grid>
          ))}
        </Grid>
      ) : null}
      {feeds.approvals ? (
        <Box sx={{ mb: 2 }}>
          <ApprovalFeedCard source={feeds.approvals.source} docTypes={feeds.approvals.docTypes} />
        </Box>
      ) : null}

      <Grid container spacing={2} sx={{ mb: 2 }}>
        {sample.kpis.map((kpi) => (
          <Grid key={kpi.key} size={{ xs: 12, sm: 6, md: 3 }}>
            <KpiTile kpi={kpi} />
          </Grid>
        ))}
      </Grid>

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: sample.recent ? 6 : 12 }}>
          <Card variant="outlined" data-testid="sample-tile">
            <CardHeader title={translate(`domain_dashboards.charts.${sample.chart.key}`)} action={<SampleChip />} />
            <CardContent>
              {sample.chart.kind === 'bar' ? (
                <BarChart
                  height={260}
                  colors={colors}
                  xAxis={[{ scaleType: 'band', data: chartLabels }]}
                  yAxis={[{ width: 56, valueFormatter: (v: number | null) => (v === null ? '' : f.compact(v)) }]}
                  series={[{ data: chartValues }]}
                />
              ) : (
                <PieChart
                  height={260}
                  colors={colors}
                  series={[{ data: chartValues.map((value, id) => ({ id, value, label: chartLabels[id] ?? '' })) }]}
                />
              )}
            </CardContent>
          </Card>
        </Grid>
        {sample.recent ? (
          <Grid size={{ xs: 12, md: 6 }}>
            <Card variant="outlined" data-testid="sample-tile">
              <CardHeader title={translate('domain_dashboards.recent_documents')} action={<SampleChip />} />
              <CardContent>
                <CardTable
                  rows={sample.recent.rows}
                  rowKey={(row) => row.doc_no}
                  columns={[
                    {
                      id: 'doc_no',
                      label: translate('domain_dashboards.feeds.columns.doc_no'),
                      render: (row) => row.doc_no,
                    },
                    {
                      id: 'doc_date',
                      label: translate('domain_dashboards.feeds.columns.doc_date'),
                      render: (row) => f.date(row.date),
                    },
                    {
                      id: 'status',
                      label: translate('domain_dashboards.status'),
                      render: (row) => translate(`domain_dashboards.statuses.${row.status}`),
                    },
                    {
                      id: 'total_amount',
                      label: translate('domain_dashboards.feeds.columns.total_amount'),
                      align: 'right',
                      render: (row) => f.amount(row.amount),
                    },
                  ]}
                  empty={translate('ra.navigation.no_results')}
                />
              </CardContent>
            </Card>
          </Grid>
        ) : null}
      </Grid>
    </Box>
  );
};
