import { Box, Button, Divider, Stack } from '@mui/material';
import {
  Edit,
  SaveButton,
  Toolbar,
  WithRecord,
  useCanAccess,
  useRecordContext,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { MappingDeleteButton } from './MappingDeleteButton';
import { PrintTemplateMappingForm } from './PrintTemplateMappingForm';
import { TestResolvePanel } from './TestResolvePanel';
import { mappingTitle } from './representation';
import { useRecordFeedback } from '../../components/useRecordFeedback';
import type { PrintTemplateMapping } from '../../types';

const EditTitle = () => {
  const record = useRecordContext<PrintTemplateMapping>();
  return <>{record ? mappingTitle(record) : ''}</>;
};

const EditToolbar = () => {
  const translate = useTranslate();
  const { canAccess: canDelete } = useCanAccess({ resource: 'print-template-mappings', action: 'delete' });
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <Stack direction="row" spacing={1}>
        <SaveButton />
        <Button component={Link} to="/print-template-mappings" data-testid="form-cancel">
          {translate('ra.action.cancel')}
        </Button>
      </Stack>
      {canDelete ? <MappingDeleteButton redirect="list" /> : null}
    </Toolbar>
  );
};

/** Edit (guarded by print_template_mapping.manage through canAccess), with the resolve panel on the mapping's document type. */
export const PrintTemplateMappingEdit = () => {
  const feedback = useRecordFeedback('print-template-mappings');
  const redirect = useRedirect();
  return (
    <Edit
      mutationMode="pessimistic"
      title={<EditTitle />}
      mutationOptions={{
        onSuccess: (data: Partial<PrintTemplateMapping>) => {
          if (data?.id === undefined) return;
          feedback.saved(mappingTitle(data));
          redirect('list', 'print-template-mappings');
        },
        onError: (error: unknown, variables: { data?: Partial<PrintTemplateMapping> } | undefined) =>
          feedback.saveFailed(mappingTitle(variables?.data ?? {}), error),
      }}
    >
      <PrintTemplateMappingForm toolbar={<EditToolbar />} />
      <Divider />
      <Box sx={{ p: 2 }}>
        <WithRecord<PrintTemplateMapping>
          render={(record) => <TestResolvePanel key={record.id} defaultDocumentType={record.document_type} />}
        />
      </Box>
    </Edit>
  );
};
