import express, { type ErrorRequestHandler } from 'express';
import { checkIfMatch, etagOf } from '../../http/etag.js';
import { handle } from '../../http/handler.js';
import { authOf, requirePermission } from '../../http/permissions.js';
import { problemBody, PROBLEM_CONTENT_TYPE } from '../../http/problem.js';
import type { ModuleDeps } from '../types.js';
import { mappingService, NoPermittedMappingError } from './service.js';

const BASE = '/api-system/print-template-mappings';
const MANAGE = 'print_template_mapping.manage';

/** With explain, resolve's 404 problem also carries every candidate and why it lost. */
const explainedNotFound: ErrorRequestHandler = (err, req, res, next) => {
  if (!(err instanceof NoPermittedMappingError) || !err.candidates) return next(err);
  res.status(404).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify({ ...problemBody(req, { status: 404, detail: err.message }), candidates: err.candidates }));
};

export function printTemplateMappingsRouter({ knex }: ModuleDeps): express.Router {
  const mappings = mappingService(knex);
  const r = express.Router();

  r.get(
    BASE,
    handle('listPrintTemplateMappings', async ({ query }) => ({
      status: 200,
      body: await mappings.list(query, { documentType: query.document_type, activeOnly: query.active_only }),
    })),
  );

  r.post(
    BASE,
    requirePermission(MANAGE),
    handle('createPrintTemplateMapping', async ({ req, body }) => {
      const created = await mappings.create(body, authOf(req).userId);
      return { status: 201, body: created, headers: { Location: `${BASE}/${created.id}`, ETag: etagOf(created) } };
    }),
  );

  // Fixed sub-paths before `/:id`.
  r.get(`${BASE}/document-types`, handle('listDocumentTypes', async () => ({ status: 200, body: mappings.documentTypes() })));

  r.get(
    `${BASE}/resolve`,
    handle('resolvePrintTemplateMapping', async ({ query }) => ({
      status: 200,
      body: await mappings.resolve(query.document_type, query.bu_code, query.explain === true),
    })),
    explainedNotFound,
  );

  r.get(
    `${BASE}/:id`,
    handle('getPrintTemplateMapping', async ({ params }) => {
      const mapping = await mappings.get(params.id);
      return { status: 200, body: mapping, headers: { ETag: etagOf(mapping) } };
    }),
  );

  r.put(
    `${BASE}/:id`,
    requirePermission(MANAGE),
    handle('updatePrintTemplateMapping', async ({ req, params, body }) => {
      const updated = await mappings.update(params.id, body, authOf(req).userId, (current) => checkIfMatch(req, current));
      return { status: 200, body: updated, headers: { ETag: etagOf(updated) } };
    }),
  );

  r.delete(
    `${BASE}/:id`,
    requirePermission(MANAGE),
    handle('deletePrintTemplateMapping', async ({ req, params }) => {
      await mappings.remove(params.id, authOf(req).userId);
      return { status: 204 };
    }),
  );

  return r;
}
