import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Notification } from 'react-admin';
import { WIDGETS_KEY, useWidgetList } from './queries';
import { useWidgetActions } from './useWidgetActions';
import { renderWithAdmin, testQueryClient } from '../test/renderWithAdmin';

const widget = (id: string, order_index: number) => ({
  id,
  dataset_id: `ds.${id}`,
  widget_type: 'kpi' as const,
  title: id,
  order_index,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

/** The reorder the last click started, so a test can wait for it to finish. */
let reordering: Promise<void> = Promise.resolve();

/** Shows the cached order and moves the first widget to the end on click. */
const Harness = () => {
  const { data } = useWidgetList();
  const { reorder } = useWidgetActions();
  const ids = (data?.items ?? []).map((w) => w.id);
  return (
    <>
      <p data-testid="order">{ids.join(',')}</p>
      <button
        onClick={() => {
          reordering = reorder([...ids.slice(1), ...ids.slice(0, 1)]);
        }}
      >
        move
      </button>
      <Notification />
    </>
  );
};

describe('useWidgetActions.reorder', () => {
  it('when a PATCH fails, then the screen keeps the new order, a toast says so, and the list is refetched', async () => {
    const list = { items: [widget('a', 10), widget('b', 20), widget('c', 30)], count: 3 };
    const getWidgets = vi.fn().mockResolvedValue(list);
    let rejectB: (e: Error) => void = () => {};
    const updateWidget = vi.fn((id: string) =>
      id === 'b' ? new Promise((_, reject) => (rejectB = reject)) : Promise.resolve(widget(id, 0)),
    );
    const queryClient = testQueryClient();
    renderWithAdmin(<Harness />, { getWidgets, updateWidget }, queryClient);
    await waitFor(() => expect(screen.getByTestId('order')).toHaveTextContent('a,b,c'));

    fireEvent.click(screen.getByText('move'));
    // Updated at once, before any PATCH has answered.
    await waitFor(() => expect(screen.getByTestId('order')).toHaveTextContent('b,c,a'));
    expect(updateWidget.mock.calls).toEqual([
      ['b', { order_index: 10 }],
      ['c', { order_index: 20 }],
      ['a', { order_index: 30 }],
    ]);
    const cached = queryClient.getQueryData<typeof list>(WIDGETS_KEY);
    expect(cached?.items.map((w) => [w.id, w.order_index])).toEqual([
      ['b', 10],
      ['c', 20],
      ['a', 30],
    ]);

    const callsBefore = getWidgets.mock.calls.length;
    await act(async () => rejectB(new Error('boom')));
    expect(await screen.findByText('The new order could not be saved.')).toBeInTheDocument();
    await waitFor(() => expect(getWidgets.mock.calls.length).toBeGreaterThan(callsBefore));
  });

  it('when nothing moves, then no PATCH is sent', async () => {
    const getWidgets = vi.fn().mockResolvedValue({ items: [widget('a', 10)], count: 1 });
    const updateWidget = vi.fn();
    renderWithAdmin(<Harness />, { getWidgets, updateWidget });
    await waitFor(() => expect(screen.getByTestId('order')).toHaveTextContent('a'));
    fireEvent.click(screen.getByText('move'));
    await act(() => reordering);
    expect(updateWidget).not.toHaveBeenCalled();
  });
});
