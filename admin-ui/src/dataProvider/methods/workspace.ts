import type { Identifier } from 'react-admin';
import type {
  DatasetList,
  DatasetQuery,
  DatasetValues,
  Widget,
  WidgetCreate,
  WidgetList,
  WidgetUpdate,
} from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { WRITABLE, pickWritable } from '../writable';

const byId = (id: Identifier) => ({ params: { path: { id: String(id) } } });

/** The caller's widget workspace and the dataset catalog behind it. */
export function workspaceMethods(c: ApiClient) {
  return {
    async getWidgets(): Promise<WidgetList> {
      return unwrap(await c.GET('/api/proxy/api/me/dashboard-widgets'));
    },
    async createWidget(body: WidgetCreate): Promise<Widget> {
      return unwrap(
        await c.POST('/api/proxy/api/me/dashboard-widgets', { body: pickWritable(body, WRITABLE.WidgetCreate) }),
      );
    },
    async updateWidget(widgetId: Identifier, body: WidgetUpdate): Promise<Widget> {
      return unwrap(
        await c.PATCH('/api/proxy/api/me/dashboard-widgets/{id}', {
          ...byId(widgetId),
          body: pickWritable(body, WRITABLE.WidgetUpdate),
        }),
      );
    },
    async deleteWidget(widgetId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api/proxy/api/me/dashboard-widgets/{id}', byId(widgetId)));
    },
    async getDatasets(query: DatasetQuery = {}): Promise<DatasetList> {
      return unwrap(await c.GET('/api/proxy/api/datasets', { params: { query } }));
    },
    /** A money dataset totals in one currency: `currency`, or by default the one of most of the caller's documents. */
    async getDatasetValues(datasetId: string, currency?: string): Promise<DatasetValues> {
      return unwrap(
        await c.GET('/api/proxy/api/datasets/{id}/values', {
          params: { path: { id: datasetId }, query: currency ? { currency } : {} },
        }),
      );
    },
  };
}
