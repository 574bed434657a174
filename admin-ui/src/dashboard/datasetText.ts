import { useTranslate } from 'react-admin';
import type { Dataset } from '../types';

/** The key of a chart label: lower case, words joined by `_`. */
export const chartLabelKey = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * The catalog's names, descriptions, categories and units in the console's language. The API names datasets in
 * English; the console has its own words for the ones it knows and shows the API's for any other.
 */
export function useDatasetText() {
  const translate = useTranslate();
  return {
    name: (d: Pick<Dataset, 'id' | 'name'>) => translate(`dashboard.datasets.${d.id}.name`, { _: d.name }),
    description: (d: Pick<Dataset, 'id' | 'description'>) =>
      translate(`dashboard.datasets.${d.id}.description`, { _: d.description }),
    category: (category: string) => translate(`dashboard.categories.${category}`, { _: category }),
    unit: (unit: string | null | undefined) =>
      unit ? translate(`dashboard.units.${unit.replace(/\s+/g, '_')}`, { _: unit }) : unit,
    /**
     * A category of a chart. Fixed categories (roles, document types) have the console's words under their label's
     * key ("Super admin" → `super_admin`); record names (a cluster's) have none and show as the API sends them.
     */
    chartLabel: (label: string) => {
      const key = chartLabelKey(label);
      return key ? translate(`dashboard.chart_labels.${key}`, { _: label }) : label;
    },
  };
}
