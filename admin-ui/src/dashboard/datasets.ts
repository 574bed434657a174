import type { Dataset, DatasetShape, WidgetType } from '../types';

/** The shapes a card can render, and the widget types each one offers. */
const WIDGET_TYPES_BY_SHAPE: Record<DatasetShape, readonly WidgetType[]> = {
  scalar: ['kpi', 'gauge'],
  scalar_delta: ['kpi', 'gauge'],
  categorical: ['pie', 'bar'],
};

const isRenderableShape = (shape: string): shape is DatasetShape => Object.hasOwn(WIDGET_TYPES_BY_SHAPE, shape);

/** The widget types offered for a dataset: those its shape renders, narrowed by the catalog's own list when given. */
export function widgetTypesFor(dataset: Pick<Dataset, 'shape' | 'widget_types'>): WidgetType[] {
  if (!isRenderableShape(dataset.shape)) return [];
  const byShape = WIDGET_TYPES_BY_SHAPE[dataset.shape];
  const offered = dataset.widget_types?.length ? byShape.filter((t) => dataset.widget_types.includes(t)) : [...byShape];
  return offered.length ? offered : [...byShape];
}

/**
 * The add-widget picker's datasets: the three renderable shapes only, minus the ones already pinned,
 * matching the search over id, name, description and category; ordered by category, then name.
 */
export function pickableDatasets(
  datasets: readonly Dataset[],
  pinnedDatasetIds: Iterable<string>,
  search = '',
): Dataset[] {
  const pinned = new Set(pinnedDatasetIds);
  const needle = search.trim().toLocaleLowerCase();
  return datasets
    .filter((d) => isRenderableShape(d.shape) && !pinned.has(d.id))
    .filter(
      (d) =>
        !needle ||
        [d.id, d.name, d.description, d.category].some((v) => (v ?? '').toLocaleLowerCase().includes(needle)),
    )
    .sort((a, b) => a.category.localeCompare(b.category) || a.name.localeCompare(b.name));
}
