import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Box, CircularProgress, Typography } from '@mui/material';

/** A screen still loading: named for assistive technology, and shown only after a moment (a quick load shows nothing). */
export const PageLoading = () => {
  const translate = useTranslate();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 500);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mt: 8 }} data-testid="page-loading">
      <CircularProgress aria-label={translate('ra.page.loading')} />
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        {translate('ra.message.loading')}
      </Typography>
    </Box>
  );
};
