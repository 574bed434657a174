import express from 'express';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { brandingService } from './service.js';

export function brandingRouter({ knex, storage, logger }: ModuleDeps): express.Router {
  const branding = brandingService({ knex, storage, logger });
  const r = express.Router();

  r.post(
    '/api-system/clusters/:id/logo',
    handle('uploadClusterLogo', async ({ req, params }) => ({ status: 200, body: await branding.upload(authOf(req), 'clusters', params.id, 'logo', req.upload) })),
  );
  r.post(
    '/api-system/clusters/:id/avatar',
    handle('uploadClusterAvatar', async ({ req, params }) => ({ status: 200, body: await branding.upload(authOf(req), 'clusters', params.id, 'avatar', req.upload) })),
  );
  r.post(
    '/api-system/business-units/:id/logo',
    handle('uploadBusinessUnitLogo', async ({ req, params }) => ({
      status: 200,
      body: await branding.upload(authOf(req), 'business_units', params.id, 'logo', req.upload),
    })),
  );
  r.post(
    '/api-system/business-units/:id/avatar',
    handle('uploadBusinessUnitAvatar', async ({ req, params }) => ({
      status: 200,
      body: await branding.upload(authOf(req), 'business_units', params.id, 'avatar', req.upload),
    })),
  );
  return r;
}
