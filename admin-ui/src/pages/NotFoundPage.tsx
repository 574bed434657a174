import { Title, useTranslate } from 'react-admin';
import { Box, Button, Typography } from '@mui/material';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Link } from 'react-router-dom';

/**
 * Shown for an address that leads nowhere: an unknown route, a malformed record id, or a record the server does not
 * show (it answers 404 alike for a record that does not exist and one in a cluster the caller cannot see). Within a
 * resource the way back is its list; elsewhere, the workspace.
 */
export const NotFoundPage = ({ resource }: { resource?: string }) => {
  const translate = useTranslate();
  return (
    <Box data-testid="not-found" sx={{ textAlign: 'center', mt: 6, px: 2 }}>
      <Title title="app.not_found.title" />
      <SearchOffIcon sx={{ fontSize: 64, color: 'text.secondary' }} aria-hidden />
      <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
        {translate('app.not_found.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {translate(resource ? 'app.not_found.record' : 'app.not_found.page')}
      </Typography>
      <Button component={Link} to={resource ? `/${resource}` : '/'} variant="outlined" sx={{ mt: 3 }}>
        {resource
          ? translate('app.not_found.back_to_list', {
              list: translate(`resources.${resource}.name`, { smart_count: 2 }),
            })
          : translate('app.not_found.back')}
      </Button>
    </Box>
  );
};

/** Any address the console has no screen for. */
export const UnknownAddressPage = () => <NotFoundPage />;
