import { Create } from 'react-admin';
import { PrintTemplateMappingForm } from './PrintTemplateMappingForm';

/** A blank label is stored as none. */
const transform = (data: Record<string, unknown>) => ({
  ...data,
  display_label: typeof data.display_label === 'string' && data.display_label.trim() ? data.display_label : null,
});

export const PrintTemplateMappingCreate = () => (
  <Create redirect="edit" transform={transform}>
    <PrintTemplateMappingForm />
  </Create>
);
