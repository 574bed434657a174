import { Avatar } from '@mui/material';
import ImageNotSupportedOutlinedIcon from '@mui/icons-material/ImageNotSupportedOutlined';
import type { BrandedRecord } from '../types';

/** List thumbnail: the logo, else the avatar, else a neutral placeholder. */
export const Thumbnail = ({ record }: { record: Pick<BrandedRecord, 'logo' | 'avatar' | 'name'> }) => {
  const src = record.logo?.url || record.avatar?.url || undefined;
  return (
    <Avatar variant="rounded" src={src} alt={record.name ?? ''} sx={{ width: 40, height: 40, bgcolor: 'action.hover' }}>
      <ImageNotSupportedOutlinedIcon fontSize="small" color="disabled" />
    </Avatar>
  );
};
