import { useState } from 'react';
import type { TranslateFunction } from 'react-admin';
import { Box, Chip, Stack, TablePagination, Typography } from '@mui/material';
import type { MembershipImportOutcome, MembershipImportResult, MembershipImportRow } from '../types';
import { CardTable, type CardColumn } from '../components/card-table';
import { IMPORT_OUTCOMES, PLAN_ROWS_PER_PAGE } from './importFile';

const CHIP_COLOR = {
  added: 'success',
  updated: 'info',
  unchanged: 'default',
  refused: 'error',
} as const satisfies Record<MembershipImportOutcome, 'success' | 'info' | 'default' | 'error'>;

type Row = MembershipImportRow;

/** The plan's columns; the requested role and state step aside on a narrow screen (the detail says them too). */
const columnsOf = (t: TranslateFunction): CardColumn<Row>[] => {
  const label = (c: string) => t(`member_import.table.${c}`);
  const keepOr = (value: string | null) => value ?? t('member_import.table.keep');
  return [
    { id: 'line', label: label('line'), render: (r) => r.line },
    { id: 'user', label: label('user'), render: (r) => r.user },
    { id: 'business_unit', label: label('business_unit'), render: (r) => r.business_unit ?? '—' },
    { id: 'cluster', label: label('cluster'), render: (r) => r.cluster ?? '—', hideBelow: 'md' },
    { id: 'role', label: label('role'), render: (r) => keepOr(r.role), hideBelow: 'md' },
    {
      id: 'active',
      label: label('active'),
      render: (r) =>
        keepOr(r.active === null ? null : t(r.active ? 'member_import.table.yes' : 'member_import.table.no')),
      hideBelow: 'md',
    },
    {
      id: 'outcome',
      label: label('outcome'),
      render: (r) => (
        <Chip
          size="small"
          variant="outlined"
          color={CHIP_COLOR[r.outcome]}
          label={t(`member_import.outcomes.${r.outcome}`)}
        />
      ),
    },
    { id: 'reason', label: label('reason'), render: (r) => (r.reason ? t(`member_import.reasons.${r.reason}`) : '') },
    { id: 'detail', label: label('detail'), render: (r) => r.detail },
  ];
};

/**
 * The summary counts, each also a filter by its outcome, and the rows one page at a time: a plan may hold 10,000 rows,
 * and rendering them all at once would freeze the screen. Each row's outcome is a chip, its reason in words.
 */
export const ImportPlanTable = ({ result, t }: { result: MembershipImportResult; t: TranslateFunction }) => {
  const [outcome, setOutcome] = useState<MembershipImportOutcome | null>(null);
  const [page, setPage] = useState(0);
  const rows = outcome ? result.rows.filter((r) => r.outcome === outcome) : result.rows;
  const shown = rows.slice(page * PLAN_ROWS_PER_PAGE, (page + 1) * PLAN_ROWS_PER_PAGE);
  const pick = (next: MembershipImportOutcome | null) => {
    setOutcome(next);
    setPage(0);
  };
  return (
    <Box>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        alignItems="center"
        sx={{ flexWrap: 'wrap', mb: 1 }}
        data-testid="import-summary"
      >
        <Typography variant="body2" sx={{ mr: 1 }}>
          {t('member_import.summary.total', { smart_count: result.summary.total })}
        </Typography>
        {IMPORT_OUTCOMES.map((o) => (
          <Chip
            key={o}
            color={CHIP_COLOR[o]}
            variant={outcome === o ? 'filled' : 'outlined'}
            label={t(`member_import.outcome_counts.${o}`, { count: result.summary[o] })}
            onClick={() => pick(outcome === o ? null : o)}
            aria-pressed={outcome === o}
            data-testid={`summary-${o}`}
          />
        ))}
        {outcome && (
          <Chip
            variant="outlined"
            label={t('member_import.summary.show_all')}
            onClick={() => pick(null)}
            data-testid="summary-all"
          />
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {t('member_import.summary.filter_hint')}
      </Typography>
      <CardTable<Row>
        rows={shown}
        columns={columnsOf(t)}
        rowKey={(r) => String(r.line)}
        empty={t('member_import.table.empty')}
        emptyTestId="import-rows-empty"
        rowTestId="import-row"
        ariaLabel={t('member_import.table.caption')}
      />
      <TablePagination
        component="div"
        count={rows.length}
        page={page}
        rowsPerPage={PLAN_ROWS_PER_PAGE}
        rowsPerPageOptions={[PLAN_ROWS_PER_PAGE]}
        onPageChange={(_, p) => setPage(p)}
        labelDisplayedRows={({ from, to, count }) => t('app.list.range', { from, to, count })}
        getItemAriaLabel={(type) => t(`app.list.go_to_${type}`)}
        data-testid="import-pagination"
      />
    </Box>
  );
};
