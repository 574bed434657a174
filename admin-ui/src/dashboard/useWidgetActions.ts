import { useQueryClient } from '@tanstack/react-query';
import type { Widget, WidgetCreate, WidgetList } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { useNotice } from '../lib/notice';
import { applyOrderPatches, computeOrderPatches } from './order';
import { DATASETS_KEY, WIDGETS_KEY } from './queries';

/**
 * The workspace's writes. Each one updates the cached list at once (no rollback on failure),
 * reports a failure with a toast, and refetches the list so the screen ends on the server's truth.
 */
export function useWidgetActions() {
  const notice = useNotice();
  const queryClient = useQueryClient();
  const dataProvider = useAppDataProvider();

  const refetchWidgets = () => queryClient.invalidateQueries({ queryKey: WIDGETS_KEY });
  const refetchCatalog = () => queryClient.invalidateQueries({ queryKey: DATASETS_KEY });
  const setCachedItems = (update: (items: Widget[]) => Widget[]) =>
    queryClient.setQueryData<WidgetList>(WIDGETS_KEY, (old) => {
      if (!old) return old;
      const next = update(old.items);
      return { ...old, items: next, count: next.length };
    });

  /** One PATCH of order_index per widget whose slot changes. */
  const reorder = async (orderedIds: string[]) => {
    const current = queryClient.getQueryData<WidgetList>(WIDGETS_KEY);
    if (!current) return;
    const patches = computeOrderPatches(current.items, orderedIds);
    if (patches.length === 0) return;
    await queryClient.cancelQueries({ queryKey: WIDGETS_KEY });
    setCachedItems((old) => applyOrderPatches(old, patches));
    const results = await Promise.allSettled(
      patches.map((p) => dataProvider.updateWidget(p.id, { order_index: p.order_index })),
    );
    if (results.some((r) => r.status === 'rejected')) {
      notice('dashboard.notifications.reorder_failed', { type: 'error' });
    }
    await refetchWidgets();
  };

  const rename = async (widget: Widget, title: string | null) => {
    setCachedItems((old) => old.map((w) => (w.id === widget.id ? { ...w, title } : w)));
    try {
      await dataProvider.updateWidget(widget.id, { title });
    } catch {
      notice('dashboard.notifications.rename_failed', { type: 'error' });
      await refetchWidgets();
    }
  };

  const remove = async (widget: Widget) => {
    setCachedItems((old) => old.filter((w) => w.id !== widget.id));
    try {
      await dataProvider.deleteWidget(widget.id);
      notice('dashboard.notifications.removed');
    } catch {
      notice('dashboard.notifications.remove_failed', { type: 'error' });
    }
    await Promise.all([refetchWidgets(), refetchCatalog()]);
  };

  /** Resolves true when the widget was created. */
  const add = async (widget: WidgetCreate): Promise<boolean> => {
    let created = false;
    try {
      const saved = await dataProvider.createWidget(widget);
      setCachedItems((old) => [...old.filter((w) => w.id !== saved.id), saved]);
      notice('dashboard.notifications.added');
      created = true;
    } catch (error) {
      notice('dashboard.notifications.add_failed', { type: 'error', error });
    }
    await Promise.all([refetchWidgets(), refetchCatalog()]);
    return created;
  };

  return { reorder, rename, remove, add };
}
