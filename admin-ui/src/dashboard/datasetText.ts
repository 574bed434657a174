import { useTranslate } from 'react-admin';
import type { Dataset } from '../types';

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
  };
}
