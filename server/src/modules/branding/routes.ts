import { ifMatch } from '../../core/etag.js';
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
    deleteClusterLogo: async ({ auth, params, req }) => {
      await branding.remove(auth, 'clusters', params.id, 'logo', ifMatch(req.headers['if-match']));
      return { status: 204 };
    },
    deleteClusterAvatar: async ({ auth, params, req }) => {
      await branding.remove(auth, 'clusters', params.id, 'avatar', ifMatch(req.headers['if-match']));
      return { status: 204 };
    },
    deleteBusinessUnitLogo: async ({ auth, params, req }) => {
      await branding.remove(auth, 'business_units', params.id, 'logo', ifMatch(req.headers['if-match']));
      return { status: 204 };
    },
    deleteBusinessUnitAvatar: async ({ auth, params, req }) => {
      await branding.remove(auth, 'business_units', params.id, 'avatar', ifMatch(req.headers['if-match']));
      return { status: 204 };
    },
  });
}
