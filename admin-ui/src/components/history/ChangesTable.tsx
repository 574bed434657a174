import { useTranslate } from 'react-admin';
import { Box, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import type { AuditEvent } from '../../types';
import { useFieldLabel } from './words';
import { EventSummary } from './EventSummary';

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

/**
 * Field by field, the value before and after; each field under its label when the record's resource has one, and an
 * image change as its pictures. With `summary`, the sentence that names what the event did comes first (the audit
 * log's unfolded row; a History entry says it in its heading).
 */
export const ChangesTable = ({ event, summary = true }: { event: AuditEvent; summary?: boolean }) => {
  const translate = useTranslate();
  const label = useFieldLabel(event.target_type);
  const entries = Object.entries(event.changes ?? {});
  const heading = summary && event.labels && (
    <Typography variant="body2" sx={{ mb: 1 }} data-testid="audit-summary">
      <EventSummary event={event} />
    </Typography>
  );
  if (entries.length === 0)
    return (
      <Stack>
        {heading}
        <Typography variant="body2" color="text.secondary">
          {translate('audit.history.no_changes')}
        </Typography>
      </Stack>
    );
  return (
    <Stack>
      {heading}
      <Table size="small" data-testid="history-changes">
        <TableHead>
          <TableRow>
            <TableCell>{translate('audit.history.field')}</TableCell>
            <TableCell>{translate('audit.history.before')}</TableCell>
            <TableCell padding="none" />
            <TableCell>{translate('audit.history.after')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map(([field, change]) => {
            const images = isImageField(field) ? event.images : undefined;
            return (
              <TableRow key={field} data-testid="history-change" data-field={field}>
                <TableCell sx={{ fontWeight: 500 }}>{label(field)}</TableCell>
                <TableCell data-testid="change-before">
                  {images ? (
                    <Picture url={images.before} stored={change.before} side="before" />
                  ) : (
                    <Value value={change.before} />
                  )}
                </TableCell>
                <TableCell padding="none">
                  <ArrowForwardIcon fontSize="small" color="action" aria-hidden />
                </TableCell>
                <TableCell data-testid="change-after">
                  {images ? (
                    <Picture url={images.after} stored={change.after} side="after" />
                  ) : (
                    <Value value={change.after} />
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Stack>
  );
};
