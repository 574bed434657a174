import { useTranslate } from 'react-admin';
import { Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ResolveCandidate } from '../../types';

const OUTCOME_COLOR: Record<ResolveCandidate['outcome'], 'success' | 'default' | 'error' | 'warning' | 'info'> = {
  selected: 'success',
  lower_rank: 'info',
  inactive: 'default',
  denied: 'error',
  not_in_allow_list: 'warning',
};

export const YesNo = ({ value }: { value: boolean }) => {
  const translate = useTranslate();
  return <>{translate(value ? 'resources.print-template-mappings.resolve.yes' : 'resources.print-template-mappings.resolve.no')}</>;
};

/** Every candidate mapping of the document type, with the outcome resolve gave it and why. */
export const ExplanationTable = ({ candidates }: { candidates: ResolveCandidate[] }) => {
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
    <Table size="small" aria-label={translate('resources.print-template-mappings.resolve.explanation')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('outcome')}</TableCell>
          <TableCell>{t('template')}</TableCell>
          <TableCell>{t('display_label')}</TableCell>
          <TableCell>{t('is_default')}</TableCell>
          <TableCell align="right">{t('display_order')}</TableCell>
          <TableCell>{t('is_active')}</TableCell>
          <TableCell>{t('reason')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {candidates.map((c) => (
          <TableRow key={c.id} data-testid="resolve-candidate" data-outcome={c.outcome} selected={c.outcome === 'selected'}>
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
            <TableCell>{c.reason}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
