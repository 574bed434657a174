/** How a mapping is named in titles and references: `PO · Purchase Order (with signatures)`. */
export function mappingTitle(record: {
  document_type?: string;
  display_label?: string | null;
  template_name?: string | null;
  id?: string;
}): string {
  const name = record.display_label?.trim() || record.template_name?.trim() || (record.id ?? '');
  return record.document_type ? `${record.document_type} · ${name}` : name;
}
