import { Box, Divider } from '@mui/material';
import { Edit, SaveButton, Toolbar, WithRecord, useCanAccess, useRecordContext } from 'react-admin';
import { MappingDeleteButton } from './MappingDeleteButton';
import { PrintTemplateMappingForm } from './PrintTemplateMappingForm';
import { TestResolvePanel } from './TestResolvePanel';
import { mappingTitle } from './representation';

const EditTitle = () => {
  const record = useRecordContext();
  return <>{record ? mappingTitle(record) : ''}</>;
};

const EditToolbar = () => {
  const { canAccess: canDelete } = useCanAccess({ resource: 'print-template-mappings', action: 'delete' });
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {canDelete ? (
        <MappingDeleteButton redirect="list" />
      ) : null}
    </Toolbar>
  );
};

/** Edit (guarded by print_template_mapping.manage through canAccess), with the resolve panel on the mapping's document type. */
export const PrintTemplateMappingEdit = () => (
  <Edit mutationMode="pessimistic" title={<EditTitle />} redirect="list">
    <PrintTemplateMappingForm toolbar={<EditToolbar />} />
    <Divider />
    <Box sx={{ p: 2 }}>
      <WithRecord render={(record) => <TestResolvePanel key={record.id} defaultDocumentType={record.document_type} />} />
    </Box>
  </Edit>
);
