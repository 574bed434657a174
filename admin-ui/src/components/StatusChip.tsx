import { useTranslate } from 'react-admin';
import { Chip } from '@mui/material';

export const StatusChip = ({ active }: { active: boolean | null | undefined }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={active ? 'success' : 'default'}
      variant={active ? 'filled' : 'outlined'}
      label={translate(active ? 'app.status.active' : 'app.status.inactive')}
    />
  );
};
