import type { Knex } from 'knex';
import type { QueryParams, Schemas } from '../../core/contract.js';
import { userInfoOf } from '../../core/display-name.js';
import { paginateInfo, parseListQuery } from '../../core/list-query.js';
import { userRepository } from './repository.js';

export function userService(deps: { knex: Knex }) {
  const repo = userRepository(deps.knex);
  return {
    /** The add-user dialog's search over the user pool (the contract lets anyone who can change some cluster's members). */
    async search(query: QueryParams<'searchUsers'>): Promise<Schemas['UserPage']> {
      const list = parseListQuery(query, { sortable: {}, defaultSort: '' });
      const { rows, total } = await repo.search({ search: list.search, excludeClusterId: query.exclude_cluster_id, limit: list.perpage, offset: list.offset });
      return {
        data: rows.map((u) => ({ id: u.id, username: u.username, email: u.email, userInfo: userInfoOf(u), is_active: u.is_active })),
        paginate: paginateInfo(total, list),
      };
    },
  };
}

export type UserService = ReturnType<typeof userService>;
