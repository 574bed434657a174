import { operations } from '../../http/handler.js';
import type { BrandingService } from './service.js';

export function brandingRoutes({ branding }: { branding: BrandingService }) {
  return operations({
    uploadClusterLogo: async ({ auth, params, req }) => ({
      status: 200,
      body: await branding.upload(auth, 'clusters', params.id, 'logo', req.upload),
    }),
    uploadClusterAvatar: async ({ auth, params, req }) => ({
      status: 200,
      body: await branding.upload(auth, 'clusters', params.id, 'avatar', req.upload),
    }),
    uploadBusinessUnitLogo: async ({ auth, params, req }) => ({
      status: 200,
      body: await branding.upload(auth, 'business_units', params.id, 'logo', req.upload),
    }),
    uploadBusinessUnitAvatar: async ({ auth, params, req }) => ({
      status: 200,
      body: await branding.upload(auth, 'business_units', params.id, 'avatar', req.upload),
    }),
  });
}
