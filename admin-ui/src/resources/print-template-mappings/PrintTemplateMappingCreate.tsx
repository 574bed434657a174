import { Create, useRedirect } from 'react-admin';
import { PrintTemplateMappingForm } from './PrintTemplateMappingForm';
import { useRecordFeedback } from '../../components/useRecordFeedback';
import { mappingTitle } from './representation';
import type { PrintTemplateMapping } from '../../types';

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
    <Create<PrintTemplateMapping>
      transform={transform}
      mutationOptions={{
        onSuccess: (data: Partial<PrintTemplateMapping>) => {
          if (data?.id === undefined) return;
          feedback.created(mappingTitle(data));
          redirect('edit', 'print-template-mappings', data.id);
        },
        onError: (error: unknown, variables: { data?: Partial<PrintTemplateMapping> } | undefined) =>
          feedback.createFailed(mappingTitle({ document_type: variables?.data?.document_type ?? '' }), error),
      }}
    >
      <PrintTemplateMappingForm />
    </Create>
  );
};
