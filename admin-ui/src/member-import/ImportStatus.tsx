import { useTranslate } from 'react-admin';
import { Alert, AlertTitle, Box, Button, LinearProgress, Typography } from '@mui/material';
import type { MemberImportState } from './useMemberImport';

/** The last call's failure, with a retry where one can help, and the progress of the call under way. */
export const ImportStatus = ({ state }: { state: MemberImportState }) => {
  const t = useTranslate();
  const { failure, busy, uploaded } = state;
  return (
    <>
      {failure && (
        <Alert
          severity="error"
          sx={{ mt: 2 }}
          data-testid={failure.kind === 'unreachable' ? 'error-state' : 'import-error'}
          action={
            failure.kind === 'refused' ? undefined : (
              <Button color="inherit" size="small" onClick={failure.retry}>
                {t('member_import.retry')}
              </Button>
            )
          }
        >
          <AlertTitle>
            {t(failure.kind === 'refused' ? 'member_import.file_refused' : 'member_import.failed')}
          </AlertTitle>
          {failure.message}
        </Alert>
      )}
      {busy && (
        <Box sx={{ mt: 2 }} data-testid="import-progress">
          <LinearProgress variant={uploaded !== null ? 'determinate' : 'indeterminate'} value={uploaded ?? undefined} />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {uploaded !== null
              ? t('member_import.uploading', { percent: uploaded })
              : busy.kind === 'apply'
                ? t('member_import.applying')
                : busy.rows > 0
                  ? t('member_import.checking_rows', { smart_count: busy.rows })
                  : t('member_import.checking')}
          </Typography>
        </Box>
      )}
    </>
  );
};
