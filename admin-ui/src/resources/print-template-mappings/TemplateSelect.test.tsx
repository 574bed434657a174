import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { TemplateSelect } from './TemplateSelectInput';
import { renderWithAdmin } from '../../test/renderWithAdmin';
import type { ReportTemplate } from '../../types';

const tpl = (id: string, name: string, kind: 'print' | 'report', report_group: string): ReportTemplate => ({
  id,
  name,
  description: null,
  kind,
  report_group,
  is_active: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

const templates = [
  tpl('00000000-0000-4000-8000-000000000001', 'Aardvark summary', 'report', 'GRN'),
  tpl('00000000-0000-4000-8000-000000000002', 'Goods receipt note', 'print', 'GRN'),
  tpl('00000000-0000-4000-8000-000000000003', 'Purchase order', 'print', 'PO'),
];

describe('TemplateSelect', () => {
  it('when the document type is GRN, then the GRN print template is listed first under its heading', () => {
    const onChange = vi.fn();
    renderWithAdmin(
      <TemplateSelect templates={templates} documentType="GRN" value="" onChange={onChange} label="Report template" />,
      {},
    );
    fireEvent.mouseDown(screen.getByRole('combobox'));
    const listbox = screen.getByRole('listbox');
    const options = within(listbox).getAllByTestId('template-option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Goods receipt note',
      'Aardvark summary (report · GRN)',
      'Purchase order (print · PO)',
    ]);
    expect(options[0]).toHaveAttribute('data-matches', 'true');
    expect(within(listbox).getByText('Print templates for GRN')).toBeInTheDocument();
    fireEvent.click(options[0] as HTMLElement);
    expect(onChange).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000002');
  });

  it('when the chosen template is not a print template of the document type, then a warning is shown', () => {
    renderWithAdmin(
      <TemplateSelect
        templates={templates}
        documentType="PO"
        value="00000000-0000-4000-8000-000000000002"
        onChange={() => {}}
        label="Report template"
      />,
      {},
    );
    expect(screen.getByText('This is not a print template of PO.')).toBeInTheDocument();
  });
});
