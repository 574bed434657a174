import { Avatar } from '@mui/material';
import ImageNotSupportedOutlinedIcon from '@mui/icons-material/ImageNotSupportedOutlined';

interface Branded {
  logo?: { url?: string | null } | null;
  avatar?: { url?: string | null } | null;
  name?: string | null;
}

/** List thumbnail: the logo, else the avatar, else a neutral placeholder. */
export const Thumbnail = ({ record }: { record: Branded }) => {
  const src = record.logo?.url || record.avatar?.url || undefined;
  return (
    <Avatar variant="rounded" src={src} alt={record.name ?? ''} sx={{ width: 40, height: 40, bgcolor: 'action.hover' }}>
      <ImageNotSupportedOutlinedIcon fontSize="small" color="disabled" />
    </Avatar>
  );
};
