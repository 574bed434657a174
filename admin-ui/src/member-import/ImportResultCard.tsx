import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, Link as MuiLink, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import type { MembershipImportResult } from '../types';
import { downloadText } from '../lib/csv';
import { auditLogOfImport } from '../audit-log';
import { changingRows, resultCsv, resultFileName } from './importFile';
import { ImportPlanTable } from './ImportPlanTable';

/** Step 3: what the apply wrote (or why nothing), each row's outcome, the result as CSV, and the import's audit trail. */
export const ImportResultCard = ({
  result,
  onStartOver,
}: {
  result: MembershipImportResult;
  onStartOver: () => void;
}) => {
  const t = useTranslate();
  return (
    <Card data-testid="import-result">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {t('member_import.step_result')}
        </Typography>
        <Alert severity={result.applied ? 'success' : 'warning'} sx={{ mb: 2 }} data-testid="import-applied">
          {result.applied
            ? t('member_import.applied', { smart_count: changingRows(result) })
            : t('member_import.not_applied')}
        </Alert>
        <ImportPlanTable result={result} t={t} />
        <Stack direction="row" spacing={2} useFlexGap alignItems="center" sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            onClick={() => downloadText(resultFileName(result), resultCsv(result))}
            data-testid="import-download-result"
          >
            {t('member_import.download_result')}
          </Button>
          {result.applied && (
            <MuiLink
              component={Link}
              to={auditLogOfImport(result.import_id)}
              underline="hover"
              data-testid="import-audit-link"
            >
              {t('member_import.audit_link')}
            </MuiLink>
          )}
          <Box sx={{ flex: 1 }} />
          <Button onClick={onStartOver} data-testid="import-start-over">
            {t('member_import.start_over')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
};
