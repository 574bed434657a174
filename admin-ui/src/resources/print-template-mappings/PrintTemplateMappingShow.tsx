import { Box, Chip, Divider, Grid, Stack, Typography } from '@mui/material';
import { EditButton, Show, TopToolbar, useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import type { PrintTemplateMapping as Mapping } from '../../types';
import { DateTimeText } from '../../components/DateTimeText';
import { useDocumentTypeLabel } from './DocumentTypeInput';
import { useDocumentTypes } from './queries';
import { mappingTitle } from './representation';
import { Codes, TemplateCell } from './PrintTemplateMappingList';
import { UnknownCodesWarning } from './UnknownCodesWarning';
import { YesNo } from './ExplanationTable';
import { TestResolvePanel } from './TestResolvePanel';
import { HistoryCard } from '../../components/history/HistoryTab';

const ShowTitle = () => {
  const record = useRecordContext<Mapping>();
  return <>{record ? mappingTitle(record) : ''}</>;
};

/** Edit is one click away for those who may manage mappings. */
const ShowActions = () => {
  const { canAccess: canEdit } = useCanAccess({ resource: 'print-template-mappings', action: 'edit' });
  return <TopToolbar>{canEdit ? <EditButton /> : null}</TopToolbar>;
};

const Field = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Grid size={{ xs: 12, sm: 6 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Box sx={{ mt: 0.5 }}>{children}</Box>
  </Grid>
);

const MappingDetails = () => {
  const record = useRecordContext<Mapping>();
  const translate = useTranslate();
  const documentTypes = useDocumentTypes();
  const label = useDocumentTypeLabel();
  if (!record) return null;
  const f = (k: string) => translate(`resources.print-template-mappings.fields.${k}`);
  const dt = documentTypes.data?.find((d) => d.code === record.document_type);
  const unknown = record.unknown_business_unit_codes ?? [];
  return (
    <Box sx={{ p: 2 }} data-testid="mapping-show">
      <Grid container spacing={2}>
        <Field label={f('document_type')}>{dt ? label(dt) : record.document_type}</Field>
        <Field label={f('report_template_id')}>
          <TemplateCell mapping={record} />
        </Field>
        <Field label={f('display_label')}>{record.display_label || '—'}</Field>
        <Field label={f('display_order')}>{record.display_order}</Field>
        <Field label={f('is_default')}>
          <YesNo value={record.is_default} />
        </Field>
        <Field label={f('is_active')}>
          <Chip
            size="small"
            color={record.is_active ? 'success' : 'default'}
            label={translate(
              record.is_active
                ? 'resources.print-template-mappings.active'
                : 'resources.print-template-mappings.inactive',
            )}
          />
        </Field>
        <Field label={f('allow_business_unit')}>
          <Codes
            codes={record.allow_business_unit}
            unknown={unknown}
            empty="resources.print-template-mappings.all_business_units"
          />
        </Field>
        <Field label={f('deny_business_unit')}>
          <Codes
            codes={record.deny_business_unit}
            unknown={unknown}
            empty="resources.print-template-mappings.no_business_units"
          />
        </Field>
        <Grid size={12}>
          <UnknownCodesWarning codes={unknown} />
        </Grid>
        <Field label={translate('app.list.created')}>
          <Stack>
            <span>
              <DateTimeText value={record.created_at} />
            </span>
            <Typography variant="caption" color="text.secondary">
              {record.created_by_name}
            </Typography>
          </Stack>
        </Field>
        <Field label={translate('app.list.updated')}>
          <Stack>
            <span>
              <DateTimeText value={record.updated_at} />
            </span>
            <Typography variant="caption" color="text.secondary">
              {record.updated_by_name}
            </Typography>
          </Stack>
        </Field>
      </Grid>
    </Box>
  );
};

const MappingHistory = () => {
  const record = useRecordContext<Mapping>();
  if (!record) return null;
  return (
    <Box sx={{ p: 2 }}>
      <HistoryCard targetType="print_template_mapping" targetId={record.id} />
    </Box>
  );
};

const ResolveForRecord = () => {
  const record = useRecordContext<Mapping>();
  if (!record) return null;
  return (
    <Box sx={{ p: 2 }}>
      <TestResolvePanel key={record.id} defaultDocumentType={record.document_type} />
    </Box>
  );
};

/** The read view of a mapping, for every signed-in user (reads need no grant). */
export const PrintTemplateMappingShow = () => (
  <Show title={<ShowTitle />} actions={<ShowActions />}>
    <MappingDetails />
    <Divider />
    <ResolveForRecord />
    <Divider />
    <MappingHistory />
  </Show>
);
