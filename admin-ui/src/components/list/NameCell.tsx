import { useTranslate } from 'react-admin';
import { Chip, Stack } from '@mui/material';
import type { AuditedRecord, BrandedRecord } from '../../types';
import { isSoftDeleted } from '../../lib/audit';

/** The name, with a Deleted badge beside it for a soft-deleted row. */
export const NameCell = ({ record }: { record: AuditedRecord & Pick<BrandedRecord, 'name'> }) => {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <span>{record.name}</span>
      {isSoftDeleted(record) && (
        <Chip
          size="small"
          color="error"
          variant="outlined"
          label={translate('app.list.deleted_badge')}
          data-testid="deleted-badge"
        />
      )}
    </Stack>
  );
};
