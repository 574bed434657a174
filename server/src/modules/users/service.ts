import type { Knex } from 'knex';
import type { components } from '../../../../openapi/generated/schema.js';
import { ForbiddenError } from '../../http/errors.js';
import { paginateInfo, parseListQuery } from '../../http/pagination.js';
import { canAnywhere, type AuthContext } from '../../http/permissions.js';
import { userInfoOf } from './display-name.js';
import { userRepository } from './repository.js';

type UserPage = components['schemas']['UserPage'];

export function userService(deps: { knex: Knex }) {
  const repo = userRepository(deps.knex);
  return {
    /** The add-user dialog's search: anyone who can change some cluster's members may look up the user pool. */
    async search(auth: AuthContext, query: Record<string, unknown>): Promise<UserPage> {
      if (!canAnywhere(auth.permissions, 'cluster.update')) throw new ForbiddenError('Missing permission cluster.update (on any cluster)');
      const list = parseListQuery(query, { sortable: {}, defaultSort: '', allowAll: false });
      const excludeClusterId = typeof query.exclude_cluster_id === 'string' && query.exclude_cluster_id !== '' ? query.exclude_cluster_id : undefined;
      const { rows, total } = await repo.search({ search: list.search, excludeClusterId, limit: list.perpage, offset: list.offset });
      return {
        data: rows.map((u) => ({ id: u.id, username: u.username, email: u.email, userInfo: userInfoOf(u), is_active: u.is_active })),
        paginate: paginateInfo(total, list),
      };
    },
  };
}
