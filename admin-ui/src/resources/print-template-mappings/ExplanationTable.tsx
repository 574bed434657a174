import { useTranslate } from 'react-admin';
import { Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ResolveCandidate } from '../../types';
import { UnknownCodesWarning } from './UnknownCodesWarning';

const OUTCOME_COLOR: Record<ResolveCandidate['outcome'], 'success' | 'default' | 'error' | 'warning' | 'info'> = {
  selected: 'success',
  lower_rank: 'info',
  inactive: 'default',
  denied: 'error',
  not_in_allow_list: 'warning',
};

export const YesNo = ({ value }: { value: boolean }) => {
  const translate = useTranslate();
  return (
    <>
      {translate(
        value ? 'resources.print-template-mappings.resolve.yes' : 'resources.print-template-mappings.resolve.no',
      )}
    </>
  );
};

/**
 * Why a candidate won or lost, in the console's language. The server explains each outcome in English
 * (`reason`): the English messages show those words (`%{server}`), Thai has its own sentence per outcome.
 */
const Reason = ({ candidate, buCode }: { candidate: ResolveCandidate; buCode: string }) => {
  const translate = useTranslate();
  return (
    <>
      {translate(`resources.print-template-mappings.resolve.reasons.${candidate.outcome}`, {
        _: candidate.reason,
        server: candidate.reason,
        bu: buCode,
      })}
    </>
  );
};

const FITTED = {
  tableLayout: 'fixed',
  width: '100%',
  '& th, & td': { overflowWrap: 'anywhere', verticalAlign: 'top', px: 1 },
  '& .MuiChip-root': { maxWidth: '100%' },
} as const;

/** Every candidate mapping of the document type, with the outcome resolve gave it and why. */
export const ExplanationTable = ({ candidates, buCode = '' }: { candidates: ResolveCandidate[]; buCode?: string }) => {
  const translate = useTranslate();
  const t = (k: string) => translate(`resources.print-template-mappings.resolve.columns.${k}`);
  if (candidates.length === 0) {
    return (
      <Typography color="text.secondary" data-testid="resolve-no-candidates">
        {translate('resources.print-template-mappings.resolve.no_candidates')}
      </Typography>
    );
  }
  return (
    // Fixed columns that wrap: the table keeps to the width of its panel or drawer, the reason included.
    <Table size="small" aria-label={translate('resources.print-template-mappings.resolve.explanation')} sx={FITTED}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '15%' }}>{t('outcome')}</TableCell>
          <TableCell sx={{ width: '17%' }}>{t('template')}</TableCell>
          <TableCell sx={{ width: '13%' }}>{t('display_label')}</TableCell>
          <TableCell sx={{ width: '9%' }}>{t('is_default')}</TableCell>
          <TableCell sx={{ width: '8%' }} align="right">
            {t('display_order')}
          </TableCell>
          <TableCell sx={{ width: '8%' }}>{t('is_active')}</TableCell>
          <TableCell sx={{ width: '30%' }}>{t('reason')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {candidates.map((c) => (
          <TableRow
            key={c.id}
            data-testid="resolve-candidate"
            data-outcome={c.outcome}
            selected={c.outcome === 'selected'}
          >
            <TableCell>
              <Chip
                size="small"
                color={OUTCOME_COLOR[c.outcome] ?? 'default'}
                label={translate(`resources.print-template-mappings.resolve.outcomes.${c.outcome}`, { _: c.outcome })}
              />
            </TableCell>
            <TableCell>{c.template_name ?? translate('resources.print-template-mappings.missing_template')}</TableCell>
            <TableCell>{c.display_label || '—'}</TableCell>
            <TableCell>
              <YesNo value={c.is_default} />
            </TableCell>
            <TableCell align="right">{c.display_order}</TableCell>
            <TableCell>
              <YesNo value={c.is_active} />
            </TableCell>
            <TableCell>
              <Stack spacing={0.5}>
                <span>
                  <Reason candidate={c} buCode={buCode} />
                </span>
                <UnknownCodesWarning codes={c.unknown_business_unit_codes} />
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
