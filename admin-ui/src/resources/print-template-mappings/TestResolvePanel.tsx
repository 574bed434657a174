import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  CircularProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslate } from 'react-admin';
import type { components } from '../../dataProvider/schema';
import { useAppDataProvider } from '../../dashboard/queries';
import { useDocumentTypeLabel } from './DocumentTypeInput';
import { useDocumentTypes } from './queries';

type Mapping = components['schemas']['PrintTemplateMapping'];
type Candidate = components['schemas']['ResolveCandidate'];

export type ResolveOutcome =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'found'; mapping: Mapping; candidates: Candidate[] }
  | { status: 'none'; candidates: Candidate[]; message: string }
  | { status: 'error'; message: string };

const OUTCOME_COLOR: Record<Candidate['outcome'], 'success' | 'default' | 'error' | 'warning' | 'info'> = {
  selected: 'success',
  lower_rank: 'info',
  inactive: 'default',
  denied: 'error',
  not_in_allow_list: 'warning',
};

/** What resolve answered, in the panel's terms: the winner with its explanation, or no winner with the candidates. */
export async function runResolve(
  resolve: (q: { document_type: string; bu_code?: string; explain: boolean }) => Promise<Mapping>,
  documentType: string,
  buCode: string,
): Promise<ResolveOutcome> {
  const query = { document_type: documentType, explain: true, ...(buCode.trim() ? { bu_code: buCode.trim() } : {}) };
  try {
    const mapping = await resolve(query);
    return { status: 'found', mapping, candidates: mapping.explanation ?? [] };
  } catch (e) {
    const error = e as { status?: number; message?: string; body?: { candidates?: Candidate[]; detail?: string } };
    if (error?.status === 404) {
      return { status: 'none', candidates: error.body?.candidates ?? [], message: error.body?.detail ?? error.message ?? '' };
    }
    return { status: 'error', message: error?.body?.detail ?? error?.message ?? '' };
  }
}

const YesNo = ({ value }: { value: boolean }) => {
  const translate = useTranslate();
  return <>{translate(value ? 'resources.print-template-mappings.resolve.yes' : 'resources.print-template-mappings.resolve.no')}</>;
};

export const ExplanationTable = ({ candidates }: { candidates: Candidate[] }) => {
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

const Winner = ({ mapping }: { mapping: Mapping }) => {
  const translate = useTranslate();
  const f = (k: string) => translate(`resources.print-template-mappings.fields.${k}`);
  return (
    <Alert severity="success" icon={<CheckIcon />} data-testid="resolve-winner">
      <Typography variant="subtitle1" component="p">
        {translate('resources.print-template-mappings.resolve.winner', {
          template: mapping.template_name ?? translate('resources.print-template-mappings.missing_template'),
        })}
      </Typography>
      <Typography variant="body2" component="p">
        {f('display_label')}: {mapping.display_label || '—'} · {f('is_default')}: <YesNo value={mapping.is_default} /> ·{' '}
        {f('display_order')}: {mapping.display_order}
      </Typography>
      <Typography variant="caption" component="p" color="text.secondary">
        {translate('resources.print-template-mappings.resolve.mapping_id', { id: mapping.id })}
      </Typography>
    </Alert>
  );
};

/** The result area of the panel (rendered separately so it can be tested on its own). */
export const ResolveResult = ({ outcome }: { outcome: ResolveOutcome }) => {
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
          <ExplanationTable candidates={outcome.candidates} />
        </Stack>
      );
    case 'found':
      return (
        <Stack spacing={2}>
          <Winner mapping={outcome.mapping} />
          <ExplanationTable candidates={outcome.candidates} />
        </Stack>
      );
  }
};

/** "Test resolve": which mapping would print a document type for a business unit, and why. */
export const TestResolvePanel = ({ defaultDocumentType = '' }: { defaultDocumentType?: string }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const documentTypes = useDocumentTypes();
  const label = useDocumentTypeLabel();
  const [documentType, setDocumentType] = useState(defaultDocumentType);
  const [buCode, setBuCode] = useState('');
  const [outcome, setOutcome] = useState<ResolveOutcome>({ status: 'idle' });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!documentType) return;
    setOutcome({ status: 'loading' });
    setOutcome(
      await runResolve(
        (q) => dataProvider.resolvePrintTemplateMapping(q) as Promise<Mapping>,
        documentType,
        buCode,
      ),
    );
  };

  return (
    <Card variant="outlined" data-testid="test-resolve-panel">
      <CardHeader
        title={translate('resources.print-template-mappings.resolve.title')}
        subheader={translate('resources.print-template-mappings.resolve.subtitle')}
      />
      <CardContent>
        <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={2} onSubmit={submit} sx={{ mb: 2 }}>
          <TextField
            select
            size="small"
            label={translate('resources.print-template-mappings.fields.document_type')}
            value={documentTypes.data ? documentType : ''}
            onChange={(e) => setDocumentType(e.target.value)}
            sx={{ minWidth: 260 }}
            required
            disabled={documentTypes.isPending}
            error={!!documentTypes.error}
            helperText={documentTypes.error ? translate('resources.print-template-mappings.document_types_error') : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'resolve-document-type' } }}
          >
            {(documentTypes.data ?? []).map((dt) => (
              <MenuItem key={dt.code} value={dt.code}>
                {label(dt)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={translate('resources.print-template-mappings.resolve.bu_code')}
            helperText={translate('resources.print-template-mappings.resolve.bu_code_help')}
            value={buCode}
            onChange={(e) => setBuCode(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 50 } }}
          />
          <Box>
            <Button type="submit" variant="contained" disabled={!documentType || outcome.status === 'loading'}>
              {translate('resources.print-template-mappings.resolve.submit')}
            </Button>
          </Box>
        </Stack>
        <ResolveResult outcome={outcome} />
      </CardContent>
    </Card>
  );
};
