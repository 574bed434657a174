import { useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { useAutocompleteText } from '../../components/useAutocompleteText';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useDocumentTypeLabel } from './DocumentTypeInput';
import { useBusinessUnitCodes, useDocumentTypes } from './queries';
import { runResolve, type ResolveOutcome } from './resolveOutcome';
import { ResolveResult } from './ResolveResult';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { RESOLVE_SCREEN_MESSAGES } from './resolveMessages';

interface PanelProps {
  defaultDocumentType?: string;
  flat?: boolean;
}

/**
 * "Test resolve": which mapping would print a document type for a business unit, and why. The business unit is
 * picked from the ones the caller may read, or typed (a code that names no live unit can be tested too).
 */
const ResolveTester = ({ defaultDocumentType = '', flat = false }: PanelProps) => {
  const translate = useTranslate();
  const autocompleteText = useAutocompleteText();
  const dataProvider = useAppDataProvider();
  const documentTypes = useDocumentTypes();
  const units = useBusinessUnitCodes();
  const businessUnits = units.choices;
  const label = useDocumentTypeLabel();
  const [documentType, setDocumentType] = useState(defaultDocumentType);
  const [buCode, setBuCode] = useState('');
  const [outcome, setOutcome] = useState<ResolveOutcome>({ status: 'idle' });
  /** The code the shown outcome was resolved for (the input may have changed since). */
  const [resolvedFor, setResolvedFor] = useState('');
  const nameOf = new Map(businessUnits.map((bu) => [bu.code, bu.name]));

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!documentType) return;
    setOutcome({ status: 'loading' });
    setResolvedFor(buCode.trim());
    setOutcome(await runResolve((q) => dataProvider.resolvePrintTemplateMapping(q), documentType, buCode));
  };

  return (
    <Card variant={flat ? 'elevation' : 'outlined'} elevation={0} data-testid="test-resolve-panel">
      <CardHeader
        title={translate('resources.print-template-mappings.resolve.title')}
        subheader={translate('resources.print-template-mappings.resolve.subtitle')}
      />
      <CardContent>
        <Stack
          component="form"
          direction={flat ? 'column' : { xs: 'column', sm: 'row' }}
          spacing={2}
          onSubmit={(e) => void submit(e)}
          sx={{ mb: 2 }}
        >
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
            helperText={
              documentTypes.error ? translate('resources.print-template-mappings.document_types_error') : undefined
            }
            slotProps={{ htmlInput: { 'data-testid': 'resolve-document-type' } }}
          >
            {(documentTypes.data ?? []).map((dt) => (
              <MenuItem key={dt.code} value={dt.code}>
                {label(dt)}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            {...autocompleteText}
            freeSolo
            options={businessUnits.map((bu) => bu.code)}
            getOptionLabel={(code) => code}
            renderOption={({ key, ...optionProps }, code) => (
              <li key={key} {...optionProps}>
                {nameOf.get(code) ? `${code} — ${nameOf.get(code)}` : code}
              </li>
            )}
            inputValue={buCode}
            onInputChange={(_, value) => setBuCode(value)}
            sx={{ minWidth: 260 }}
            renderInput={(params) => (
              <TextField
                {...params}
                size="small"
                label={translate('resources.print-template-mappings.resolve.bu_code')}
                helperText={translate('resources.print-template-mappings.resolve.bu_code_help')}
                inputProps={{ ...params.inputProps, maxLength: 50 }}
              />
            )}
          />
          <Box>
            <Button type="submit" variant="contained" disabled={!documentType || outcome.status === 'loading'}>
              {translate('resources.print-template-mappings.resolve.submit')}
            </Button>
          </Box>
        </Stack>
        {units.ready && resolvedFor && outcome.status !== 'loading' && units.unknownOf([resolvedFor]).length > 0 ? (
          <Alert severity="info" data-testid="resolve-unknown-bu" sx={{ mb: 2 }}>
            {translate('resources.print-template-mappings.resolve.unknown_bu', { code: resolvedFor })}
          </Alert>
        ) : null}
        <ResolveResult outcome={outcome} buCode={resolvedFor} />
      </CardContent>
    </Card>
  );
};

export const TestResolvePanel = (props: PanelProps) => (
  <ScreenMessages modules={RESOLVE_SCREEN_MESSAGES}>
    <ResolveTester {...props} />
  </ScreenMessages>
);
