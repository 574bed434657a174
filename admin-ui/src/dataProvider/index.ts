import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { api as defaultApi, type Api } from './api';
import type { components } from './schema';
import { toHttpError } from './errors';
import { fromListEnvelope, toListQuery } from './query';
import {
  BUSINESS_UNIT_WRITABLE,
  CLUSTER_WRITABLE,
  PRINT_TEMPLATE_MAPPING_WRITABLE,
  pickWritable,
} from './writable';

type Schemas = components['schemas'];
export type Cluster = Schemas['Cluster'];
export type BusinessUnit = Schemas['BusinessUnit'];
export type ClusterUser = Schemas['ClusterUser'];
export type BusinessUnitUser = Schemas['BusinessUnitUser'];
export type PlatformUser = Schemas['User'];
export type Currency = Schemas['Currency'];
export type UploadResult = Schemas['UploadResult'];
export type PrintTemplateMapping = Schemas['PrintTemplateMapping'];
export type ReportTemplate = Schemas['ReportTemplate'];
export type DocumentType = Schemas['DocumentType'];
export type MembershipRole = Schemas['MembershipRole'];

export type BrandedResource = 'clusters' | 'business-units';
export type ImageKind = 'logo' | 'avatar';

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Returns the body of a successful call; turns anything else into an HttpError. */
function unwrap<T>({ data, error, response }: Outcome<T>): T {
  if (!response.ok) throw toHttpError(response.status, error);
  return data as T;
}

/** Sends a file as multipart with the given form field name. */
const formData = (field: string) => (body: unknown) => {
  const fd = new FormData();
  fd.append(field, (body as Record<string, Blob>)[field] as Blob);
  return fd;
};

const id = (v: Identifier) => String(v);

/**
 * Last ETag seen per record. Updates send it back as If-Match, so a save over someone else's newer
 * write is refused (412) instead of silently overwriting it.
 */
function createEtagStore() {
  const tags = new Map<string, string>();
  const key = (resource: string, i: string) => `${resource}/${i}`;
  return {
    remember:
      (resource: string, i: string) =>
      <T>(outcome: Outcome<T>): T => {
        const data = unwrap(outcome);
        const tag = outcome.response.headers.get('ETag');
        if (tag) tags.set(key(resource, i), tag);
        return data;
      },
    ifMatch: (resource: string, i: string): { 'If-Match'?: string } => {
      const tag = tags.get(key(resource, i));
      return tag ? { 'If-Match': tag } : {};
    },
  };
}

export function createDataProvider(api: Api = defaultApi) {
  const c = api.client;
  const etags = createEtagStore();

  /** Typed CRUD per resource, checked against the contract. */
  const crud = {
    clusters: {
      list: (query: Record<string, unknown>) =>
        c.GET('/api-system/clusters', { params: { query: query as never } }).then(unwrap),
      one: (i: string) =>
        c.GET('/api-system/clusters/{id}', { params: { path: { id: i } } }).then(etags.remember('clusters', i)),
      create: (body: Record<string, unknown>) =>
        c.POST('/api-system/clusters', { body: pickWritable(body, CLUSTER_WRITABLE) as Schemas['ClusterInput'] }).then(unwrap),
      update: (i: string, body: Record<string, unknown>) =>
        c
          .PUT('/api-system/clusters/{id}', {
            params: { path: { id: i }, header: etags.ifMatch('clusters', i) },
            body: pickWritable(body, CLUSTER_WRITABLE) as Schemas['ClusterInput'],
          })
          .then(etags.remember('clusters', i)),
      remove: (i: string) => c.DELETE('/api-system/clusters/{id}', { params: { path: { id: i } } }).then(unwrap),
    },
    'business-units': {
      list: (query: Record<string, unknown>) =>
        c.GET('/api-system/business-units', { params: { query: query as never } }).then(unwrap),
      one: (i: string) =>
        c.GET('/api-system/business-units/{id}', { params: { path: { id: i } } }).then(etags.remember('business-units', i)),
      create: (body: Record<string, unknown>) =>
        c
          .POST('/api-system/business-units', {
            body: pickWritable(body, BUSINESS_UNIT_WRITABLE) as Schemas['BusinessUnitInput'],
          })
          .then(unwrap),
      update: (i: string, body: Record<string, unknown>) =>
        c
          .PUT('/api-system/business-units/{id}', {
            params: { path: { id: i }, header: etags.ifMatch('business-units', i) },
            body: pickWritable(body, BUSINESS_UNIT_WRITABLE) as Schemas['BusinessUnitInput'],
          })
          .then(etags.remember('business-units', i)),
      remove: (i: string) => c.DELETE('/api-system/business-units/{id}', { params: { path: { id: i } } }).then(unwrap),
    },
    'print-template-mappings': {
      list: (query: Record<string, unknown>) =>
        c.GET('/api-system/print-template-mappings', { params: { query: query as never } }).then(unwrap),
      one: (i: string) =>
        c.GET('/api-system/print-template-mappings/{id}', { params: { path: { id: i } } }).then(unwrap),
      create: (body: Record<string, unknown>) =>
        c
          .POST('/api-system/print-template-mappings', {
            body: pickWritable(body, PRINT_TEMPLATE_MAPPING_WRITABLE) as Schemas['PrintTemplateMappingCreate'],
          })
          .then(unwrap),
      update: (i: string, body: Record<string, unknown>) =>
        c
          .PUT('/api-system/print-template-mappings/{id}', {
            params: { path: { id: i } },
            body: pickWritable(body, PRINT_TEMPLATE_MAPPING_WRITABLE) as Schemas['PrintTemplateMappingUpdate'],
          })
          .then(unwrap),
      remove: (i: string) =>
        c.DELETE('/api-system/print-template-mappings/{id}', { params: { path: { id: i } } }).then(unwrap),
    },
  } as const;

  type CrudResource = keyof typeof crud;
  function ops(resource: string) {
    const found = (crud as Record<string, (typeof crud)[CrudResource]>)[resource];
    if (!found) throw new Error(`Unknown resource: ${resource}`);
    return found;
  }

  async function getList(resource: string, params: Partial<GetListParams>) {
    const body = (await ops(resource).list(toListQuery(params))) as { data: RaRecord[]; paginate: Schemas['Paginate'] };
    const page = fromListEnvelope(body);
    return { ...page, data: page.data as never[] };
  }

  /** react-admin's CRUD verbs mapped onto the contract; records are returned as the contract sends them. */
  const crudVerbs: DataProvider = {
    getList: (resource, params) => getList(resource, params),
    getOne: async (resource, params) => ({ data: (await ops(resource).one(id(params.id))) as never }),
    getMany: async (resource, params) => ({
      data: (await Promise.all(params.ids.map((i) => ops(resource).one(id(i))))) as never[],
    }),
    getManyReference: (resource, params) =>
      getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }),
    create: async (resource, params) => ({
      data: (await ops(resource).create(params.data as Record<string, unknown>)) as never,
    }),
    update: async (resource, params) => ({
      data: (await ops(resource).update(id(params.id), params.data as Record<string, unknown>)) as never,
    }),
    updateMany: async (resource, params) => {
      await Promise.all(params.ids.map((i) => ops(resource).update(id(i), params.data as Record<string, unknown>)));
      return { data: params.ids };
    },
    delete: async (resource, params) => {
      await ops(resource).remove(id(params.id));
      return { data: (params.previousData ?? { id: params.id }) as never };
    },
    deleteMany: async (resource, params) => {
      await Promise.all(params.ids.map((i) => ops(resource).remove(id(i))));
      return { data: params.ids };
    },
  };

  const provider = {
    ...crudVerbs,

    // ---- Custom methods (non-CRUD calls of the contract) ----

    /** POST …/{id}/logo|avatar as multipart; stored at once, independently of any form save. */
    async uploadImage(resource: BrandedResource, recordId: Identifier, kind: ImageKind, file: Blob): Promise<UploadResult> {
      const path = { params: { path: { id: id(recordId) } } };
      if (resource === 'clusters') {
        return kind === 'logo'
          ? unwrap(await c.POST('/api-system/clusters/{id}/logo', { ...path, body: { logo: file as unknown as string }, bodySerializer: formData('logo') }))
          : unwrap(await c.POST('/api-system/clusters/{id}/avatar', { ...path, body: { avatar: file as unknown as string }, bodySerializer: formData('avatar') }));
      }
      return kind === 'logo'
        ? unwrap(await c.POST('/api-system/business-units/{id}/logo', { ...path, body: { logo: file as unknown as string }, bodySerializer: formData('logo') }))
        : unwrap(await c.POST('/api-system/business-units/{id}/avatar', { ...path, body: { avatar: file as unknown as string }, bodySerializer: formData('avatar') }));
    },

    /** Brings a soft-deleted cluster or BU back. */
    async restore(resource: BrandedResource, recordId: Identifier): Promise<{ data: RaRecord }> {
      const path = { params: { path: { id: id(recordId) } } };
      const data =
        resource === 'clusters'
          ? unwrap(await c.POST('/api-system/clusters/{id}/restore', path))
          : unwrap(await c.POST('/api-system/business-units/{id}/restore', path));
      return { data: data as RaRecord };
    },

    async getCurrencies(params: { active_only?: boolean } = {}): Promise<Currency[]> {
      const body = unwrap(await c.GET('/api-system/currencies', { params: { query: params } }));
      return body.data;
    },

    /** Global user pool search, 10 per page by default. */
    async searchUsers(params: { search?: string; page?: number; perpage?: number; exclude_cluster_id?: string }) {
      const query = {
        page: params.page ?? 1,
        perpage: params.perpage ?? 10,
        ...(params.search?.trim() ? { search: params.search.trim() } : {}),
        ...(params.exclude_cluster_id ? { exclude_cluster_id: params.exclude_cluster_id } : {}),
      };
      const body = unwrap(await c.GET('/api-system/user', { params: { query } }));
      return { ...fromListEnvelope<PlatformUser>(body), paginate: body.paginate };
    },

    async getClusterUsers(clusterId: Identifier): Promise<ClusterUser[]> {
      return unwrap(await c.GET('/api-system/user/clusters/{id}', { params: { path: { id: id(clusterId) } } })).data;
    },
    async addClusterUser(body: Schemas['ClusterUserCreate']): Promise<ClusterUser> {
      return unwrap(await c.POST('/api-system/user/clusters', { body }));
    },
    async updateClusterUser(membershipId: Identifier, body: Schemas['ClusterUserUpdate']): Promise<ClusterUser> {
      return unwrap(await c.PUT('/api-system/user/clusters/{id}', { params: { path: { id: id(membershipId) } }, body }));
    },
    async removeClusterUser(membershipId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/user/clusters/{id}', { params: { path: { id: id(membershipId) } } }));
    },

    async getBusinessUnitUsers(businessUnitId: Identifier): Promise<BusinessUnitUser[]> {
      return unwrap(await c.GET('/api-system/user/business-units/{id}', { params: { path: { id: id(businessUnitId) } } })).data;
    },
    async addBusinessUnitUser(body: Schemas['BusinessUnitUserCreate']): Promise<BusinessUnitUser> {
      return unwrap(await c.POST('/api-system/user/business-units', { body }));
    },
    async updateBusinessUnitUser(membershipId: Identifier, body: Schemas['BusinessUnitUserUpdate']): Promise<BusinessUnitUser> {
      return unwrap(
        await c.PATCH('/api-system/user/business-units/{id}', { params: { path: { id: id(membershipId) } }, body }),
      );
    },
    async removeBusinessUnitUser(membershipId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/user/business-units/{id}', { params: { path: { id: id(membershipId) } } }));
    },

    // ---- Print template mappings (screens owned elsewhere use these) ----

    async getDocumentTypes(): Promise<DocumentType[]> {
      return unwrap(await c.GET('/api-system/print-template-mappings/document-types')).document_types;
    },
    async resolvePrintTemplateMapping(params: { document_type: string; bu_code?: string; explain?: boolean }) {
      return unwrap(await c.GET('/api-system/print-template-mappings/resolve', { params: { query: params } }));
    },
    async getReportTemplates(params: { kind?: string; report_group?: string; page?: number; perpage?: number } = {}) {
      return unwrap(await c.GET('/api-system/report-templates', { params: { query: params as never } }));
    },

    // ---- Widget workspace and feeds (screens owned elsewhere use these) ----

    async getWidgets(): Promise<Schemas['WidgetList']> {
      return unwrap(await c.GET('/api/proxy/api/me/dashboard-widgets'));
    },
    async createWidget(body: Schemas['WidgetCreate']): Promise<Schemas['Widget']> {
      return unwrap(await c.POST('/api/proxy/api/me/dashboard-widgets', { body }));
    },
    async updateWidget(widgetId: Identifier, body: Schemas['WidgetUpdate']): Promise<Schemas['Widget']> {
      return unwrap(
        await c.PATCH('/api/proxy/api/me/dashboard-widgets/{id}', { params: { path: { id: id(widgetId) } }, body }),
      );
    },
    async deleteWidget(widgetId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api/proxy/api/me/dashboard-widgets/{id}', { params: { path: { id: id(widgetId) } } }));
    },
    async getDatasets(params: { exclude_pinned?: boolean } = {}): Promise<Schemas['DatasetList']> {
      return unwrap(await c.GET('/api/proxy/api/datasets', { params: { query: params } }));
    },
    async getDatasetValues(datasetId: string): Promise<Schemas['DatasetValues']> {
      return unwrap(await c.GET('/api/proxy/api/datasets/{id}/values', { params: { path: { id: datasetId } } }));
    },
    async getMyPendingCount(doc: 'purchase-requests' | 'purchase-orders' | 'store-requisitions'): Promise<Schemas['PendingCount']> {
      if (doc === 'purchase-requests') return unwrap(await c.GET('/api/proxy/api/my-pending/purchase-requests/count'));
      if (doc === 'purchase-orders') return unwrap(await c.GET('/api/proxy/api/my-pending/purchase-orders/count'));
      return unwrap(await c.GET('/api/proxy/api/my-pending/store-requisitions/count'));
    },
    async getPendingApprovals(): Promise<Schemas['ApprovalFeed']> {
      return unwrap(await c.GET('/api/proxy/api/approval/pending'));
    },
    async getApprovalSummary(): Promise<Schemas['ApprovalFeed']> {
      return unwrap(await c.GET('/api/proxy/api/approval/summary'));
    },
  };

  return provider satisfies DataProvider;
}

export type AppDataProvider = ReturnType<typeof createDataProvider>;

export const dataProvider = createDataProvider();
