import { useState } from 'react';
import { Box, Button, Divider, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
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
import { StaleRecordDialog } from '../../components/StaleRecordDialog';
import { statusOf } from '../../lib/problems';
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
  const queryClient = useQueryClient();
  const [stale, setStale] = useState(false);
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
        onError: (error: unknown, variables: { data?: Partial<PrintTemplateMapping> } | undefined) => {
          if (statusOf(error) !== 412) return feedback.saveFailed(mappingTitle(variables?.data ?? {}), error);
          // Someone saved in between: the form shows their version (and its ETag) instead of overwriting it.
          setStale(true);
          return queryClient.invalidateQueries({ queryKey: ['print-template-mappings', 'getOne'] });
        },
      }}
    >
      <StaleRecordDialog open={stale} onClose={() => setStale(false)} />
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
