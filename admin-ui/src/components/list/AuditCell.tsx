import { Typography } from '@mui/material';
import type { AuditEntry } from '../../lib/audit';
import { useFormat } from '../../lib/format';

/** The time (the console language's date and time format) over the actor; blank when there is no entry. */
export const AuditCell = ({ entry }: { entry: AuditEntry | null }) => {
  const format = useFormat();
  if (!entry || !entry.at) return null;
  return (
    <>
      <Typography variant="body2" component="div" sx={{ whiteSpace: 'nowrap' }}>
        {format.dateTime(entry.at)}
      </Typography>
      {entry.by && (
        <Typography variant="caption" color="text.secondary" component="div">
          {entry.by}
        </Typography>
      )}
    </>
  );
};
