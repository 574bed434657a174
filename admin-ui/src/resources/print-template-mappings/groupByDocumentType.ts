/** Rows of one page grouped by document type, in first-seen order; within a group: default first, then display order. */
export function groupByDocumentType<T extends { document_type: string; is_default: boolean; display_order: number }>(
  rows: readonly T[],
): { documentType: string; rows: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(row.document_type) ?? [];
    list.push(row);
    groups.set(row.document_type, list);
  }
  return [...groups.entries()].map(([documentType, list]) => ({
    documentType,
    rows: [...list].sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.display_order - b.display_order),
  }));
}
