import type { Identifier } from 'react-admin';
import type {
  BusinessUnitUser,
  BusinessUnitUserCreate,
  BusinessUnitUserUpdate,
  ClusterUser,
  ClusterUserCreate,
  ClusterUserUpdate,
  PlatformUser,
  UserSearchQuery,
} from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { fromListEnvelope } from '../query';
import { WRITABLE, pickWritable } from '../writable';

const USER_SEARCH_PAGE_SIZE = 10;

const byId = (id: Identifier) => ({ params: { path: { id: String(id) } } });

/** A membership row as listed: its id and the ETag of the version read. */
type Versioned = Pick<ClusterUser | BusinessUnitUser, 'id' | 'etag'>;

const ifMatchOf = (member: Versioned): { 'If-Match'?: string } => (member.etag ? { 'If-Match': member.etag } : {});

/** The global user pool and the memberships of clusters and business units. */
export function memberMethods(c: ApiClient) {
  return {
    /** Global user pool search, 10 per page by default. */
    async searchUsers(params: UserSearchQuery) {
      const search = params.search?.trim();
      const query: UserSearchQuery = {
        page: params.page ?? 1,
        perpage: params.perpage ?? USER_SEARCH_PAGE_SIZE,
        ...(search ? { search } : {}),
        ...(params.exclude_cluster_id ? { exclude_cluster_id: params.exclude_cluster_id } : {}),
      };
      const body = unwrap(await c.GET('/api-system/user', { params: { query } }));
      return { ...fromListEnvelope<PlatformUser>(body), paginate: body.paginate };
    },

    async getClusterUsers(clusterId: Identifier): Promise<ClusterUser[]> {
      return unwrap(await c.GET('/api-system/user/clusters/{id}', byId(clusterId))).data;
    },
    async addClusterUser(body: ClusterUserCreate): Promise<ClusterUser> {
      return unwrap(
        await c.POST('/api-system/user/clusters', { body: pickWritable(body, WRITABLE.ClusterUserCreate) }),
      );
    },
    /** Sends the edited row's ETag as If-Match: a change made meanwhile by someone else is refused (412). */
    async updateClusterUser(member: Versioned, body: ClusterUserUpdate): Promise<ClusterUser> {
      return unwrap(
        await c.PUT('/api-system/user/clusters/{id}', {
          params: { path: { id: member.id }, header: ifMatchOf(member) },
          body: pickWritable(body, WRITABLE.ClusterUserUpdate),
        }),
      );
    },
    async removeClusterUser(membershipId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/user/clusters/{id}', byId(membershipId)));
    },

    async getBusinessUnitUsers(businessUnitId: Identifier): Promise<BusinessUnitUser[]> {
      return unwrap(await c.GET('/api-system/user/business-units/{id}', byId(businessUnitId))).data;
    },
    async addBusinessUnitUser(body: BusinessUnitUserCreate): Promise<BusinessUnitUser> {
      return unwrap(
        await c.POST('/api-system/user/business-units', { body: pickWritable(body, WRITABLE.BusinessUnitUserCreate) }),
      );
    },
    /** Sends the edited row's ETag as If-Match, as a cluster member's update does. */
    async updateBusinessUnitUser(member: Versioned, body: BusinessUnitUserUpdate): Promise<BusinessUnitUser> {
      return unwrap(
        await c.PATCH('/api-system/user/business-units/{id}', {
          params: { path: { id: member.id }, header: ifMatchOf(member) },
          body: pickWritable(body, WRITABLE.BusinessUnitUserUpdate),
        }),
      );
    },
    async removeBusinessUnitUser(membershipId: Identifier): Promise<void> {
      unwrap(await c.DELETE('/api-system/user/business-units/{id}', byId(membershipId)));
    },
  };
}
