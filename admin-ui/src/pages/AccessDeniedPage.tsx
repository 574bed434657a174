import { AccessDenied, useTranslate } from 'react-admin';
import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';

/**
 * Shown whenever a route guard fails, and for a record the server would not show (403, or 404: the server does not
 * tell a record in a cluster the caller cannot see from one that does not exist), so both read the same.
 */
export const AccessDeniedPage = () => {
  const translate = useTranslate();
  return (
    <Box data-testid="access-denied" sx={{ textAlign: 'center' }}>
      <AccessDenied textPrimary="app.access_denied.title" textSecondary="app.access_denied.message" />
      <Typography variant="body2" color="text.secondary">
        {translate('app.access_denied.not_found')}
      </Typography>
      <Button component={Link} to="/" variant="outlined" sx={{ mt: 2 }}>
        {translate('app.access_denied.back')}
      </Button>
    </Box>
  );
};
