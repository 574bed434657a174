/** The ten document types a print template can be mapped to (the specified list); the code is the value. */
export const DOCUMENT_TYPES = [
  { code: 'PR', label: 'Purchase Request' },
  { code: 'PO', label: 'Purchase Order' },
  { code: 'GRN', label: 'Good Received Note' },
  { code: 'SR', label: 'Store Requisition' },
  { code: 'CN', label: 'Credit Note' },
  { code: 'IA', label: 'Inventory Adjustment' },
  { code: 'PC', label: 'Physical Count' },
  { code: 'SC', label: 'Spot Check' },
  { code: 'RFQ', label: 'Request For Quotation' },
  { code: 'INV', label: 'Invoice' },
] as const;

export type DocumentTypeCode = (typeof DOCUMENT_TYPES)[number]['code'];

const CODES: ReadonlySet<string> = new Set(DOCUMENT_TYPES.map((t) => t.code));

export function isDocumentType(value: string): value is DocumentTypeCode {
  return CODES.has(value);
}
