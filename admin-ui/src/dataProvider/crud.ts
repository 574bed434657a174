import type { CreateParams } from 'react-admin';
import type { ListQuery, UserListQuery } from '../types';
import type { ApiClient } from './api';
import type { EtagStore } from './etagStore';
import { unwrap } from './outcome';
import { WRITABLE, pickWritable } from './writable';

/** Form values as react-admin hands them over; the server checks them against the contract (400 with field errors). */
type FormValues = CreateParams['data'];

const byId = (id: string) => ({ params: { path: { id } } });

/** The list filters the shared query leaves on the client, read for the one resource whose contract has them. */
type ListFilter = Record<string, unknown>;

/** The account list's query: the shared paging, sort, search, status and cluster, plus `has_grants`. */
export function userListQuery(query: ListQuery, filter: ListFilter = {}): UserListQuery {
  const out: UserListQuery = { page: query.page, perpage: query.perpage };
  // The account list has no created-by default of its own; its contract sorts by username.
  if (query.sort && /^(username|email|is_active|last_sign_in_at|created_at|updated_at):(asc|desc)$/.test(query.sort))
    out.sort = query.sort;
  if (query.search) out.search = query.search;
  if (query.is_active !== undefined) out.is_active = query.is_active;
  if (query.cluster_id) out.cluster_id = query.cluster_id;
  if (typeof filter.has_grants === 'boolean') out.has_grants = filter.has_grants;
  return out;
}

/** The CRUD calls of each resource with a list screen, typed by the contract. */
export function createCrudOps(c: ApiClient, etags: EtagStore) {
  return {
    clusters: {
      list: (query: ListQuery) => c.GET('/api-system/clusters', { params: { query } }).then(unwrap),
      one: (id: string) => c.GET('/api-system/clusters/{id}', byId(id)).then(etags.remember('clusters', id)),
      create: (values: FormValues) =>
        c.POST('/api-system/clusters', { body: pickWritable(values, WRITABLE.ClusterInput) }).then(unwrap),
      update: (id: string, values: FormValues, edited?: unknown) =>
        c
          .PUT('/api-system/clusters/{id}', {
            params: { path: { id }, header: etags.ifMatch('clusters', id, edited) },
            body: pickWritable(values, WRITABLE.ClusterInput),
          })
          .then(etags.remember('clusters', id)),
      remove: (id: string) => c.DELETE('/api-system/clusters/{id}', byId(id)).then(unwrap),
    },
    'business-units': {
      list: (query: ListQuery) => c.GET('/api-system/business-units', { params: { query } }).then(unwrap),
      one: (id: string) =>
        c.GET('/api-system/business-units/{id}', byId(id)).then(etags.remember('business-units', id)),
      create: (values: FormValues) =>
        c.POST('/api-system/business-units', { body: pickWritable(values, WRITABLE.BusinessUnitInput) }).then(unwrap),
      update: (id: string, values: FormValues, edited?: unknown) =>
        c
          .PUT('/api-system/business-units/{id}', {
            params: { path: { id }, header: etags.ifMatch('business-units', id, edited) },
            body: pickWritable(values, WRITABLE.BusinessUnitInput),
          })
          .then(etags.remember('business-units', id)),
      remove: (id: string) => c.DELETE('/api-system/business-units/{id}', byId(id)).then(unwrap),
    },
    'print-template-mappings': {
      list: (query: ListQuery) => c.GET('/api-system/print-template-mappings', { params: { query } }).then(unwrap),
      one: (id: string) =>
        c.GET('/api-system/print-template-mappings/{id}', byId(id)).then(etags.remember('print-template-mappings', id)),
      create: (values: FormValues) =>
        c
          .POST('/api-system/print-template-mappings', {
            body: pickWritable(values, WRITABLE.PrintTemplateMappingCreate),
          })
          .then(unwrap),
      update: (id: string, values: FormValues, edited?: unknown) =>
        c
          .PUT('/api-system/print-template-mappings/{id}', {
            params: { path: { id }, header: etags.ifMatch('print-template-mappings', id, edited) },
            body: pickWritable(values, WRITABLE.PrintTemplateMappingUpdate),
          })
          .then(etags.remember('print-template-mappings', id)),
      remove: (id: string) => c.DELETE('/api-system/print-template-mappings/{id}', byId(id)).then(unwrap),
    },
    // Accounts are never deleted: they are deactivated (a custom method), so there is no `remove`.
    users: {
      list: (query: ListQuery, filter?: ListFilter) =>
        c.GET('/api-system/users', { params: { query: userListQuery(query, filter) } }).then(unwrap),
      one: (id: string) => c.GET('/api-system/users/{id}', byId(id)).then(etags.remember('users', id)),
      create: (values: FormValues) =>
        c.POST('/api-system/users', { body: pickWritable(values, WRITABLE.UserCreate) }).then(unwrap),
      update: (id: string, values: FormValues, edited?: unknown) =>
        c
          .PUT('/api-system/users/{id}', {
            params: { path: { id }, header: etags.ifMatch('users', id, edited) },
            body: pickWritable(values, WRITABLE.UserUpdate),
          })
          .then(etags.remember('users', id)),
    },
  };
}

export type CrudOps = ReturnType<typeof createCrudOps>;
