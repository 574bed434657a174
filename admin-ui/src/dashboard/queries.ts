import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';

export const WIDGETS_KEY = ['me', 'dashboard-widgets'] as const;
export const DATASETS_KEY = ['datasets'] as const;
// Its own root, so refreshing the catalog after an add or remove does not refetch every card.
const datasetValuesKey = (datasetId: string, currency: string | null) =>
  ['dataset-values', datasetId, currency] as const;

/** The widget list: cached for a minute, refetched when the window regains focus, never polled. */
const WIDGET_LIST_STALE_MS = 60_000;

export function useWidgetList() {
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: WIDGETS_KEY,
    queryFn: () => dataProvider.getWidgets(),
    staleTime: WIDGET_LIST_STALE_MS,
    refetchOnWindowFocus: true,
    refetchInterval: false,
  });
}

/** The dataset catalog (all of it, for names and shapes; the picker asks with `exclude_pinned`). */
export function useDatasetCatalog(options: { excludePinned?: boolean; enabled?: boolean } = {}) {
  const dataProvider = useAppDataProvider();
  const excludePinned = options.excludePinned ?? false;
  return useQuery({
    queryKey: [...DATASETS_KEY, { exclude_pinned: excludePinned }],
    queryFn: () => dataProvider.getDatasets(excludePinned ? { exclude_pinned: true } : {}),
    enabled: options.enabled ?? true,
  });
}

/** One card's values, fetched when the card mounts; a money card asks again when another currency is chosen. */
export function useDatasetValues(datasetId: string, currency?: string) {
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: datasetValuesKey(datasetId, currency ?? null),
    queryFn: () =>
      currency ? dataProvider.getDatasetValues(datasetId, currency) : dataProvider.getDatasetValues(datasetId),
    // The old currency's figure stays in place while the new one loads, instead of a spinner flash.
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
  });
}
