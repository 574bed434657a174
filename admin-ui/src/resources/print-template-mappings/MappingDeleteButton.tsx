import { DeleteWithConfirmButton, useRecordContext } from 'react-admin';
import { mappingTitle } from './representation';

/** Delete after a confirmation that names the mapping (soft delete on the server). */
export const MappingDeleteButton = ({ redirect }: { redirect?: 'list' | false }) => {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <DeleteWithConfirmButton
      confirmTitle="resources.print-template-mappings.delete.title"
      confirmContent="resources.print-template-mappings.delete.content"
      translateOptions={{ recordRepresentation: mappingTitle(record) }}
      mutationMode="pessimistic"
      redirect={redirect}
    />
  );
};
