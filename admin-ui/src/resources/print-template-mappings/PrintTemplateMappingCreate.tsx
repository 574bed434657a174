import { Create, useRedirect } from 'react-admin';
import { PrintTemplateMappingForm } from './PrintTemplateMappingForm';
import { useRecordFeedback } from '../../components/useRecordFeedback';
import { mappingTitle } from './representation';

/** A blank label is stored as none. */
const transform = (data: Record<string, unknown>) => ({
  ...data,
  display_label: typeof data.display_label === 'string' && data.display_label.trim() ? data.display_label : null,
});

/** On success the new mapping's edit page opens (with its resolve tester); both outcomes name the mapping. */
export const PrintTemplateMappingCreate = () => {
  const feedback = useRecordFeedback('print-template-mappings');
  const redirect = useRedirect();
  return (
    <Create
      transform={transform}
      mutationOptions={{
        onSuccess: (data: {
          id?: unknown;
          document_type?: string;
          display_label?: string | null;
          template_name?: string | null;
        }) => {
          if (data?.id === undefined) return;
          feedback.created(mappingTitle(data));
          redirect('edit', 'print-template-mappings', String(data.id));
        },
        onError: (error: unknown, variables: { data?: Record<string, unknown> } | undefined) =>
          feedback.createFailed(mappingTitle({ document_type: String(variables?.data?.document_type ?? '') }), error),
      }}
    >
      <PrintTemplateMappingForm />
    </Create>
  );
};
