import { useTranslate } from 'react-admin';
import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import type { PrintTemplateMapping } from '../../types';
import type { ResolveOutcome } from './resolveOutcome';
import { ExplanationTable, YesNo } from './ExplanationTable';

/** The winner in words: the template that prints, then how the mapping is set up (its id stays out of sight). */
const Winner = ({ mapping, buCode }: { mapping: PrintTemplateMapping; buCode: string }) => {
  const translate = useTranslate();
  const f = (k: string) => translate(`resources.print-template-mappings.fields.${k}`);
  return (
    <Alert severity="success" icon={<CheckIcon />} data-testid="resolve-winner" data-mapping-id={mapping.id}>
      <Typography variant="subtitle1" component="p">
        {translate('resources.print-template-mappings.resolve.winner', {
          template: mapping.template_name ?? translate('resources.print-template-mappings.missing_template'),
        })}
      </Typography>
      <Typography variant="body2" component="p">
        {translate(
          buCode
            ? 'resources.print-template-mappings.resolve.winner_for_bu'
            : 'resources.print-template-mappings.resolve.winner_no_bu',
          {
            document_type: mapping.document_type,
            bu: buCode,
          },
        )}
      </Typography>
      <Typography variant="body2" component="p">
        {f('display_label')}: {mapping.display_label || '—'} · {f('is_default')}: <YesNo value={mapping.is_default} /> ·{' '}
        {f('display_order')}: {mapping.display_order}
      </Typography>
    </Alert>
  );
};

/** The result area of the resolve tester: a prompt, a spinner, the error, or the outcome with its explanation. */
export const ResolveResult = ({ outcome, buCode = '' }: { outcome: ResolveOutcome; buCode?: string }) => {
  const translate = useTranslate();
  switch (outcome.status) {
    case 'idle':
      return (
        <Typography color="text.secondary">{translate('resources.print-template-mappings.resolve.idle')}</Typography>
      );
    case 'loading':
      return (
        <Box display="flex" justifyContent="center" p={2}>
          <CircularProgress size={28} aria-label={translate('resources.print-template-mappings.resolve.loading')} />
        </Box>
      );
    case 'error':
      return (
        <Alert severity="error" data-testid="resolve-error">
          {translate('resources.print-template-mappings.resolve.error', { message: outcome.message })}
        </Alert>
      );
    case 'none':
      return (
        <Stack spacing={2}>
          <Alert severity="warning" data-testid="resolve-none">
            {translate('resources.print-template-mappings.resolve.none')}
          </Alert>
          <ExplanationTable candidates={outcome.candidates} buCode={buCode} />
        </Stack>
      );
    case 'found':
      return (
        <Stack spacing={2}>
          <Winner mapping={outcome.mapping} buCode={buCode} />
          <ExplanationTable candidates={outcome.candidates} buCode={buCode} />
        </Stack>
      );
  }
};
