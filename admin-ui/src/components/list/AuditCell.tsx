import { Typography } from '@mui/material';
import { formatDateTime, type AuditEntry } from '../../lib/audit';

/** Timestamp (local `YYYY-MM-DD HH:mm:ss`) over the actor; blank when there is no entry. */
export const AuditCell = ({ entry }: { entry: AuditEntry | null }) => {
  if (!entry || !entry.at) return null;
  return (
    <>
      <Typography variant="body2" component="div" sx={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(entry.at)}
      </Typography>
      {entry.by && (
        <Typography variant="caption" color="text.secondary" component="div">
          {entry.by}
        </Typography>
      )}
    </>
  );
};
