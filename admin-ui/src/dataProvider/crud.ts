import type { CreateParams } from 'react-admin';
import type { ListQuery } from '../types';
import type { ApiClient } from './api';
import type { EtagStore } from './etagStore';
import { unwrap } from './outcome';
import { WRITABLE, pickWritable } from './writable';

/** Form values as react-admin hands them over; the server checks them against the contract (400 with field errors). */
type FormValues = CreateParams['data'];

const byId = (id: string) => ({ params: { path: { id } } });

/** The CRUD calls of each resource with a list screen, typed by the contract. */
export function createCrudOps(c: ApiClient, etags: EtagStore) {
  return {
    clusters: {
      list: (query: ListQuery) => c.GET('/api-system/clusters', { params: { query } }).then(unwrap),
      one: (id: string) => c.GET('/api-system/clusters/{id}', byId(id)).then(etags.remember('clusters', id)),
      create: (values: FormValues) =>
        c.POST('/api-system/clusters', { body: pickWritable(values, WRITABLE.ClusterInput) }).then(unwrap),
      update: (id: string, values: FormValues) =>
        c
          .PUT('/api-system/clusters/{id}', {
            params: { path: { id }, header: etags.ifMatch('clusters', id) },
            body: pickWritable(values, WRITABLE.ClusterInput),
          })
          .then(etags.remember('clusters', id)),
      remove: (id: string) => c.DELETE('/api-system/clusters/{id}', byId(id)).then(unwrap),
    },
    'business-units': {
      list: (query: ListQuery) => c.GET('/api-system/business-units', { params: { query } }).then(unwrap),
      one: (id: string) => c.GET('/api-system/business-units/{id}', byId(id)).then(etags.remember('business-units', id)),
      create: (values: FormValues) =>
        c.POST('/api-system/business-units', { body: pickWritable(values, WRITABLE.BusinessUnitInput) }).then(unwrap),
      update: (id: string, values: FormValues) =>
        c
          .PUT('/api-system/business-units/{id}', {
            params: { path: { id }, header: etags.ifMatch('business-units', id) },
            body: pickWritable(values, WRITABLE.BusinessUnitInput),
          })
          .then(etags.remember('business-units', id)),
      remove: (id: string) => c.DELETE('/api-system/business-units/{id}', byId(id)).then(unwrap),
    },
    'print-template-mappings': {
      list: (query: ListQuery) => c.GET('/api-system/print-template-mappings', { params: { query } }).then(unwrap),
      one: (id: string) => c.GET('/api-system/print-template-mappings/{id}', byId(id)).then(unwrap),
      create: (values: FormValues) =>
        c
          .POST('/api-system/print-template-mappings', { body: pickWritable(values, WRITABLE.PrintTemplateMappingCreate) })
          .then(unwrap),
      update: (id: string, values: FormValues) =>
        c
          .PUT('/api-system/print-template-mappings/{id}', {
            ...byId(id),
            body: pickWritable(values, WRITABLE.PrintTemplateMappingUpdate),
          })
          .then(unwrap),
      remove: (id: string) => c.DELETE('/api-system/print-template-mappings/{id}', byId(id)).then(unwrap),
    },
  };
}

export type CrudOps = ReturnType<typeof createCrudOps>;
