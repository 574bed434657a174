import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { WidgetValues, gaugeMax } from './WidgetValues';
import { renderWithAdmin } from '../test/renderWithAdmin';

const values = (shape: string, data: unknown) => ({
  dataset_id: 'x',
  shape,
  generated_at: '2026-11-22T00:00:00Z',
  data,
});

describe('WidgetValues', () => {
  it('when mounted, then it fetches the values of its dataset and shows the KPI number', async () => {
    const getDatasetValues = vi.fn().mockResolvedValue(values('scalar', { value: 1234 }));
    renderWithAdmin(<WidgetValues datasetId="tenancy.active-clusters" widgetType="kpi" unit="clusters" />, {
      getDatasetValues,
    });
    expect(screen.getByLabelText('Loading values')).toBeInTheDocument();
    expect(await screen.findByTestId('widget-kpi-value')).toHaveTextContent('1,234');
    expect(screen.getByText('clusters')).toBeInTheDocument();
    expect(getDatasetValues).toHaveBeenCalledWith('tenancy.active-clusters');
  });

  it('when the value fell, then a down arrow and the signed change are shown', async () => {
    const getDatasetValues = vi.fn().mockResolvedValue(values('scalar_delta', { value: 4, prev: 7, change: -3 }));
    renderWithAdmin(<WidgetValues datasetId="d" widgetType="kpi" />, { getDatasetValues });
    expect(await screen.findByTestId('widget-delta-down')).toHaveTextContent('-3');
    expect(screen.getByTestId('widget-delta-down')).toHaveTextContent('vs 7 before');
  });

  it('when the dataset is gone, then the card shows an error with a retry', async () => {
    const getDatasetValues = vi
      .fn()
      .mockRejectedValueOnce(new HttpError('Not Found', 404, {}))
      .mockResolvedValueOnce(values('scalar', { value: 5 }));
    renderWithAdmin(<WidgetValues datasetId="gone" widgetType="kpi" />, { getDatasetValues });
    expect(await screen.findByText('The values of this dataset could not be loaded.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('widget-kpi-value')).toHaveTextContent('5'));
  });

  it('when the dataset totals money, then the figure carries its currency and another currency can be chosen', async () => {
    const money = (currency: string, value: number) => ({
      ...values('scalar', { value }),
      currency,
      currencies: ['THB', 'USD'],
    });
    const getDatasetValues = vi
      .fn()
      .mockImplementation((_id: string, currency?: string) =>
        Promise.resolve(currency === 'USD' ? money('USD', 250.25) : money('THB', 1500)),
      );
    renderWithAdmin(<WidgetValues datasetId="approval.amount-waiting" widgetType="kpi" unit="amount" />, {
      getDatasetValues,
    });
    expect(await screen.findByTestId('widget-kpi-value')).toHaveTextContent('THB 1,500.00');
    // The dataset's generic unit is not shown next to an amount that names its currency.
    expect(screen.queryByText('amount')).not.toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Currency' }));
    fireEvent.click(await screen.findByRole('option', { name: 'USD' }));
    await waitFor(() => expect(screen.getByTestId('widget-kpi-value')).toHaveTextContent('USD 250.25'));
    expect(getDatasetValues).toHaveBeenLastCalledWith('approval.amount-waiting', 'USD');
  });

  it('when a money dataset has one currency, then no selector is offered', async () => {
    const getDatasetValues = vi
      .fn()
      .mockResolvedValue({ ...values('scalar', { value: 10 }), currency: 'THB', currencies: ['THB'] });
    renderWithAdmin(<WidgetValues datasetId="d" widgetType="kpi" />, { getDatasetValues });
    expect(await screen.findByTestId('widget-kpi-value')).toHaveTextContent('THB 10.00');
    expect(screen.queryByRole('combobox', { name: 'Currency' })).not.toBeInTheDocument();
  });

  it('when a categorical dataset has no points, then it says there is no data', async () => {
    const getDatasetValues = vi.fn().mockResolvedValue(values('categorical', []));
    renderWithAdmin(<WidgetValues datasetId="d" widgetType="pie" />, { getDatasetValues });
    expect(await screen.findByText('No data')).toBeInTheDocument();
  });
});

describe('gaugeMax', () => {
  it('rounds up to 1, 2 or 5 times a power of ten, covering every value', () => {
    expect(gaugeMax(7)).toBe(10);
    expect(gaugeMax(12)).toBe(20);
    expect(gaugeMax(30, 41)).toBe(50);
    expect(gaugeMax(100)).toBe(100);
    expect(gaugeMax(0)).toBe(1);
    expect(gaugeMax(-5)).toBe(1);
  });
});
