import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AddWidgetDialog } from './AddWidgetDialog';
import { renderWithAdmin } from '../test/renderWithAdmin';

const dataset = (id: string, shape: string, name: string) => ({
  id,
  name,
  description: `${name} description`,
  shape,
  category: id.split('.')[0],
  unit: null,
  widget_types: shape === 'categorical' ? ['pie', 'bar'] : ['kpi', 'gauge'],
});

describe('AddWidgetDialog', () => {
  it('when opened, then it asks for unpinned datasets and lists only renderable, unpinned ones', async () => {
    const getDatasets = vi.fn().mockResolvedValue({
      items: [
        dataset('tenancy.active-clusters', 'scalar', 'Active clusters'),
        dataset('procurement.pr-pending', 'scalar_delta', 'Pending PRs'),
        dataset('inventory.by-category', 'categorical', 'Stock by category'),
        dataset('inventory.odd', 'matrix', 'Odd shape'),
      ],
      count: 4,
    });
    renderWithAdmin(
      <AddWidgetDialog open onClose={() => {}} onSubmit={() => {}} pinnedDatasetIds={['procurement.pr-pending']} />,
      { getDatasets },
    );
    await waitFor(() => expect(screen.getAllByTestId('picker-dataset')).toHaveLength(2));
    expect(getDatasets).toHaveBeenCalledWith({ exclude_pinned: true });
    const ids = screen.getAllByTestId('picker-dataset').map((el) => el.getAttribute('data-dataset-id'));
    expect(ids).toEqual(['inventory.by-category', 'tenancy.active-clusters']);
  });

  it('when a categorical dataset is chosen, then pie and bar are offered and the choice is submitted', async () => {
    const getDatasets = vi.fn().mockResolvedValue({
      items: [dataset('inventory.by-category', 'categorical', 'Stock by category')],
      count: 1,
    });
    const onSubmit = vi.fn();
    renderWithAdmin(<AddWidgetDialog open onClose={() => {}} onSubmit={onSubmit} pinnedDatasetIds={[]} />, {
      getDatasets,
    });
    fireEvent.click(await screen.findByText('Stock by category'));
    expect(screen.getByLabelText('Pie')).toBeChecked();
    expect(screen.queryByLabelText('KPI')).toBeNull();
    fireEvent.click(screen.getByLabelText('Bar'));
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeEnabled();
    fireEvent.click(add);
    expect(onSubmit).toHaveBeenCalledWith({ dataset_id: 'inventory.by-category', widget_type: 'bar', title: null });
  });

  it('when every dataset is pinned, then it says so', async () => {
    const getDatasets = vi.fn().mockResolvedValue({ items: [], count: 0 });
    renderWithAdmin(<AddWidgetDialog open onClose={() => {}} onSubmit={() => {}} pinnedDatasetIds={[]} />, {
      getDatasets,
    });
    expect(await screen.findByTestId('picker-empty')).toHaveTextContent('Every dataset is already on your workspace.');
  });
});
