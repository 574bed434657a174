import { AccessDenied, useTranslate } from 'react-admin';
import { Box, Button } from '@mui/material';
import { Link } from 'react-router-dom';

/** Shown whenever a route guard fails. */
export const AccessDeniedPage = () => {
  const translate = useTranslate();
  return (
    <Box data-testid="access-denied" sx={{ textAlign: 'center' }}>
      <AccessDenied textPrimary="app.access_denied.title" textSecondary="app.access_denied.message" />
      <Button component={Link} to="/" variant="outlined" sx={{ mt: 2 }}>
        {translate('app.access_denied.back')}
      </Button>
    </Box>
  );
};
