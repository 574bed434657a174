import { SelectInput, required, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { DocumentType } from '../../types';
import { useDocumentTypes } from './queries';

/** `PO — Purchase Order`, with the label translated when the console has it (the API's label otherwise). */
export function useDocumentTypeLabel() {
  const translate = useTranslate();
  return (dt: Pick<DocumentType, 'code' | 'label'>) =>
    `${dt.code} — ${translate(`resources.print-template-mappings.document_types.${dt.code}`, { _: dt.label })}`;
}

/** The document type, from GET …/document-types. */
export const DocumentTypeInput = ({
  alwaysOn: _alwaysOn,
  ...props
}: {
  source?: string;
  alwaysOn?: boolean;
  validate?: boolean;
}) => {
  const source = props.source ?? 'document_type';
  const types = useDocumentTypes();
  const label = useDocumentTypeLabel();
  const current = useWatch({ name: source }) as string | undefined;
  // Until the list arrives, the stored code is its own choice (a select must always hold one of its options).
  const choices = types.data
    ? types.data.map((dt) => ({ id: dt.code, name: label(dt) }))
    : current
      ? [{ id: current, name: current }]
      : [];
  return (
    <SelectInput
      source={source}
      label="resources.print-template-mappings.fields.document_type"
      choices={choices}
      isPending={types.isPending}
      validate={props.validate === false ? undefined : required()}
      emptyText={props.validate === false ? 'resources.print-template-mappings.filters.all_document_types' : undefined}
    />
  );
};
