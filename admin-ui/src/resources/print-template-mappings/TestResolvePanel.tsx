import { useState, type FormEvent } from 'react';
import { Box, Button, Card, CardContent, CardHeader, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useDocumentTypeLabel } from './DocumentTypeInput';
import { useDocumentTypes } from './queries';
import { runResolve, type ResolveOutcome } from './resolveOutcome';
import { ResolveResult } from './ResolveResult';

/** "Test resolve": which mapping would print a document type for a business unit, and why. */
export const TestResolvePanel = ({ defaultDocumentType = '' }: { defaultDocumentType?: string }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const documentTypes = useDocumentTypes();
  const label = useDocumentTypeLabel();
  const [documentType, setDocumentType] = useState(defaultDocumentType);
  const [buCode, setBuCode] = useState('');
  const [outcome, setOutcome] = useState<ResolveOutcome>({ status: 'idle' });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!documentType) return;
    setOutcome({ status: 'loading' });
    setOutcome(
      await runResolve((q) => dataProvider.resolvePrintTemplateMapping(q), documentType, buCode),
    );
  };

  return (
    <Card variant="outlined" data-testid="test-resolve-panel">
      <CardHeader
        title={translate('resources.print-template-mappings.resolve.title')}
        subheader={translate('resources.print-template-mappings.resolve.subtitle')}
      />
      <CardContent>
        <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={2} onSubmit={submit} sx={{ mb: 2 }}>
          <TextField
            select
            size="small"
            label={translate('resources.print-template-mappings.fields.document_type')}
            value={documentTypes.data ? documentType : ''}
            onChange={(e) => setDocumentType(e.target.value)}
            sx={{ minWidth: 260 }}
            required
            disabled={documentTypes.isPending}
            error={!!documentTypes.error}
            helperText={documentTypes.error ? translate('resources.print-template-mappings.document_types_error') : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'resolve-document-type' } }}
          >
            {(documentTypes.data ?? []).map((dt) => (
              <MenuItem key={dt.code} value={dt.code}>
                {label(dt)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={translate('resources.print-template-mappings.resolve.bu_code')}
            helperText={translate('resources.print-template-mappings.resolve.bu_code_help')}
            value={buCode}
            onChange={(e) => setBuCode(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 50 } }}
          />
          <Box>
            <Button type="submit" variant="contained" disabled={!documentType || outcome.status === 'loading'}>
              {translate('resources.print-template-mappings.resolve.submit')}
            </Button>
          </Box>
        </Stack>
        <ResolveResult outcome={outcome} />
      </CardContent>
    </Card>
  );
};
