import { useState } from 'react';
import type { TranslateFunction } from 'react-admin';
import {
  Box,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import type { MembershipImportOutcome, MembershipImportResult, MembershipImportRow } from '../types';
import { IMPORT_OUTCOMES, PLAN_ROWS_PER_PAGE } from './importFile';

const CHIP_COLOR = {
  added: 'success',
  updated: 'info',
  unchanged: 'default',
  refused: 'error',
} as const satisfies Record<MembershipImportOutcome, 'success' | 'info' | 'default' | 'error'>;

const COLUMNS = ['line', 'user', 'business_unit', 'cluster', 'role', 'active', 'outcome', 'reason', 'detail'] as const;

const PlanRow = ({ row, t }: { row: MembershipImportRow; t: TranslateFunction }) => (
  <TableRow hover data-testid="import-row" data-outcome={row.outcome}>
    <TableCell>{row.line}</TableCell>
    <TableCell sx={{ wordBreak: 'break-all' }}>{row.user}</TableCell>
    <TableCell>{row.business_unit ?? '—'}</TableCell>
    <TableCell>{row.cluster ?? '—'}</TableCell>
    <TableCell>{row.role ?? t('member_import.table.keep')}</TableCell>
    <TableCell>
      {row.active === null
        ? t('member_import.table.keep')
        : t(row.active ? 'member_import.table.yes' : 'member_import.table.no')}
    </TableCell>
    <TableCell>
      <Chip
        size="small"
        variant="outlined"
        color={CHIP_COLOR[row.outcome]}
        label={t(`member_import.outcomes.${row.outcome}`)}
      />
    </TableCell>
    <TableCell>{row.reason ? t(`member_import.reasons.${row.reason}`) : ''}</TableCell>
    <TableCell>{row.detail}</TableCell>
  </TableRow>
);

/**
 * The summary counts, each also a filter by its outcome, and the rows one page at a time: a plan may hold 10,000 rows,
 * and rendering them all at once would freeze the screen.
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
      <TableContainer>
        <Table size="small" aria-label={t('member_import.table.caption')}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((c) => (
                <TableCell key={c} sx={{ fontWeight: 600 }}>
                  {t(`member_import.table.${c}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} data-testid="import-rows-empty">
                  {t('member_import.table.empty')}
                </TableCell>
              </TableRow>
            ) : (
              shown.map((r) => <PlanRow key={r.line} row={r} t={t} />)
            )}
          </TableBody>
        </Table>
      </TableContainer>
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
