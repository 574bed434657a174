import type { ReactNode } from 'react';
import { ListSubheader, MenuItem, TextField } from '@mui/material';
import { useInput, useTranslate, required, type Validator } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { ReportTemplate } from '../../types';
import { orderTemplates, matchesDocumentType } from './templateOrder';
import { useReportTemplates } from './queries';

const validateTemplate: Validator[] = [required()];

/**
 * A group heading of the select. The select hands every child the props of an option (role, click, selection);
 * a heading takes none of them, so it is never announced, focused or picked as an option.
 */
const GroupHeading = ({ children }: { children: ReactNode }) => (
  <ListSubheader role="presentation" data-testid="template-group-heading">
    {children}
  </ListSubheader>
);
// Keyboard navigation of the menu skips it, as it skips MUI's own subheaders.
GroupHeading.muiSkipListHighlight = true;

/**
 * The mapping's report template. Print templates of the chosen document type are listed first (under their own
 * heading); any other template can still be picked (the contract does not enforce the match) and gets a warning.
 */
export const TemplateSelectInput = ({ source = 'report_template_id' }: { source?: string }) => {
  const translate = useTranslate();
  const documentType = useWatch({ name: 'document_type' }) as string | undefined;
  const templates = useReportTemplates();
  const { field, fieldState, isRequired } = useInput({ source, validate: validateTemplate });
  return (
    <TemplateSelect
      templates={templates.data ?? []}
      documentType={documentType}
      value={(field.value as string | null) ?? ''}
      onChange={(v) => field.onChange(v)}
      onBlur={field.onBlur}
      loading={templates.isPending}
      loadError={!!templates.error}
      label={translate('resources.print-template-mappings.fields.report_template_id')}
      required={isRequired}
      error={fieldState.invalid && (fieldState.isTouched || fieldState.isDirty) ? fieldState.error?.message : undefined}
      name={field.name}
      inputRef={field.ref}
    />
  );
};

/** The select itself, independent of the form (used by the input above and by tests). */
export const TemplateSelect = ({
  templates,
  documentType,
  value,
  onChange,
  onBlur,
  loading = false,
  loadError = false,
  label,
  required: isRequired = false,
  error,
  name,
  inputRef,
}: {
  templates: readonly ReportTemplate[];
  documentType: string | null | undefined;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  loading?: boolean;
  loadError?: boolean;
  label: string;
  required?: boolean;
  error?: string;
  name?: string;
  inputRef?: React.Ref<HTMLInputElement>;
}) => {
  const translate = useTranslate();
  const options = orderTemplates(templates, documentType);
  const matching = options.filter((o) => o.matches);
  const others = options.filter((o) => !o.matches);
  const selected = templates.find((t) => t.id === value);
  const unknownValue = !!value && !selected && !loading;

  const helper = error
    ? translate(error, { _: error })
    : loadError
      ? translate('resources.print-template-mappings.template_select.load_error')
      : selected && documentType && !matchesDocumentType(selected, documentType)
        ? translate('resources.print-template-mappings.template_select.mismatch', { document_type: documentType })
        : !documentType
          ? translate('resources.print-template-mappings.template_select.pick_document_type')
          : ' ';

  const item = (t: ReportTemplate) => (
    <MenuItem
      key={t.id}
      value={t.id}
      data-testid="template-option"
      data-matches={String(matchesDocumentType(t, documentType))}
    >
      {t.name}
      {t.kind !== 'print' || t.report_group !== documentType ? ` (${t.kind} · ${t.report_group})` : ''}
      {!t.is_active ? ` — ${translate('resources.print-template-mappings.template_select.inactive')}` : ''}
    </MenuItem>
  );

  return (
    <TextField
      select
      label={label}
      value={loading && value ? '' : value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={onBlur}
      required={isRequired}
      error={!!error || loadError}
      helperText={helper}
      name={name}
      inputRef={inputRef}
      fullWidth
      size="small"
      disabled={loading}
      sx={{ mb: 1 }}
    >
      {unknownValue ? (
        <MenuItem value={value}>
          {translate('resources.print-template-mappings.template_select.unknown', { id: value })}
        </MenuItem>
      ) : null}
      {matching.length > 0 ? (
        <GroupHeading>
          {translate('resources.print-template-mappings.template_select.matching', {
            document_type: documentType ?? '',
          })}
        </GroupHeading>
      ) : null}
      {matching.map((o) => item(o.template))}
      {others.length > 0 ? (
        <GroupHeading>{translate('resources.print-template-mappings.template_select.others')}</GroupHeading>
      ) : null}
      {others.map((o) => item(o.template))}
    </TextField>
  );
};
