import type { ReportTemplate } from '../../types';

/** A mapping should point at a print template of the mapping's own document type. */
export const matchesDocumentType = (
  t: Pick<ReportTemplate, 'kind' | 'report_group'>,
  documentType: string | null | undefined,
) => !!documentType && t.kind === 'print' && t.report_group === documentType;

interface TemplateOption {
  template: ReportTemplate;
  matches: boolean;
}

/**
 * The template select's options: print templates whose report group equals the chosen document type
 * float to the top; the rest follow. Within each part active templates come first, then by name.
 */
export function orderTemplates(
  templates: readonly ReportTemplate[],
  documentType: string | null | undefined,
): TemplateOption[] {
  const byName = (a: ReportTemplate, b: ReportTemplate) =>
    Number(b.is_active) - Number(a.is_active) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  const matching = templates.filter((t) => matchesDocumentType(t, documentType)).sort(byName);
  const others = templates.filter((t) => !matchesDocumentType(t, documentType)).sort(byName);
  return [
    ...matching.map((template) => ({ template, matches: true })),
    ...others.map((template) => ({ template, matches: false })),
  ];
}

/** Business-unit codes as the chip inputs keep them: trimmed, non-blank, first occurrence only. */
export function normaliseBuCodes(codes: readonly unknown[] | null | undefined): string[] {
  const out: string[] = [];
  for (const c of codes ?? []) {
    if (typeof c !== 'string') continue;
    const code = c.trim();
    if (code && !out.includes(code)) out.push(code);
  }
  return out;
}
