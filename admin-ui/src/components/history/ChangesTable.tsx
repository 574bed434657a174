import { useTranslate } from 'react-admin';
import { Box, Stack, Typography } from '@mui/material';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import type { AuditEvent } from '../../types';
import { useFieldLabel } from './words';
import { EventSummary } from './EventSummary';
import { CardTable, type CardColumn } from '../card-table';

const Value = ({ value }: { value: unknown }) => {
  const translate = useTranslate();
  if (value === null || value === undefined || value === '')
    return (
      <Typography variant="body2" component="span" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {translate('audit.history.empty_value')}
      </Typography>
    );
  if (typeof value === 'boolean') return <>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</>;
  if (typeof value === 'string' || typeof value === 'number') return <>{String(value)}</>;
  // An audit value is JSON: what is left is an object or an array, shown as its JSON text.
  return (
    <Box component="code" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 12 }}>
      {JSON.stringify(value)}
    </Box>
  );
};

/** One side of an image change: the picture, or why there is none (no image then, or its file is gone). */
const Picture = ({ url, stored, side }: { url: string | null; stored: unknown; side: 'before' | 'after' }) => {
  const translate = useTranslate();
  if (!url)
    return (
      <Typography variant="body2" component="span" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {translate(stored ? 'audit.images.gone' : 'audit.images.none')}
      </Typography>
    );
  return (
    <Box
      component="img"
      src={url}
      alt={translate(`audit.images.${side}`)}
      data-testid={`history-image-${side}`}
      sx={{ width: 48, height: 48, objectFit: 'contain', borderRadius: 1, border: 1, borderColor: 'divider' }}
    />
  );
};

const isImageField = (field: string) => field === 'logo_key' || field === 'avatar_key';

type Change = { field: string; before: unknown; after: unknown };

/**
 * Field by field, the value before and after; each field under its label when the record's resource has one, and an
 * image change as its pictures. With `summary`, the sentence that names what the event did comes first (the audit
 * log's unfolded row; a History entry says it in its heading).
 */
export const ChangesTable = ({ event, summary = true }: { event: AuditEvent; summary?: boolean }) => {
  const translate = useTranslate();
  const label = useFieldLabel(event.target_type);
  const rows: Change[] = Object.entries(event.changes ?? {}).map(([field, c]) => ({ field, ...c }));
  const side = (which: 'before' | 'after') => (row: Change) => {
    const images = isImageField(row.field) ? event.images : undefined;
    return (
      <Box component="span" data-testid={`change-${which}`}>
        {images ? <Picture url={images[which]} stored={row[which]} side={which} /> : <Value value={row[which]} />}
      </Box>
    );
  };
  const columns: CardColumn<Change>[] = [
    {
      id: 'field',
      label: translate('audit.history.field'),
      render: (row) => (
        <Box component="span" data-field={row.field} sx={{ fontWeight: 500 }}>
          {label(row.field)}
        </Box>
      ),
    },
    { id: 'before', label: translate('audit.history.before'), render: side('before') },
    {
      id: 'arrow',
      label: '',
      render: () => <ArrowForwardIcon fontSize="small" color="action" aria-hidden />,
      sx: { width: '1%', px: 0 },
    },
    { id: 'after', label: translate('audit.history.after'), render: side('after') },
  ];
  return (
    <Stack>
      {summary && event.labels && (
        <Typography variant="body2" sx={{ mb: 1 }} data-testid="audit-summary">
          <EventSummary event={event} />
        </Typography>
      )}
      <CardTable
        rows={rows}
        columns={columns}
        rowKey={(row) => row.field}
        empty={translate('audit.history.no_changes')}
        emptyTestId="history-no-changes"
        testId="history-changes"
        rowTestId="history-change"
      />
    </Stack>
  );
};
