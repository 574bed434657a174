import type { Knex } from 'knex';
import { toCount } from '../../db/count.js';
import { likeContains } from '../../db/sql.js';

export interface UserRow {
  id: string;
  username: string;
  email: string;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
  is_active: boolean;
}

export interface UserSearch {
  search: string | undefined;
  excludeClusterId: string | undefined;
  limit: number;
  offset: number;
}

export function userRepository(knex: Knex) {
  function filtered(s: UserSearch): Knex.QueryBuilder {
    const qb = knex('users');
    if (s.search) {
      // lower(col) LIKE uses the trigram indexes of migration 0001.
      const pattern = likeContains(s.search.toLowerCase());
      qb.where((w) =>
        w.whereRaw('lower(users.username) like ?', [pattern])
          .orWhereRaw('lower(users.email) like ?', [pattern])
          .orWhereRaw('lower(users.firstname) like ?', [pattern])
          .orWhereRaw('lower(users.lastname) like ?', [pattern]),
      );
    }
    if (s.excludeClusterId) {
      qb.whereNotExists(
        knex('cluster_users').select(knex.raw('1')).whereRaw('cluster_users.user_id = users.id').where('cluster_users.cluster_id', s.excludeClusterId),
      );
    }
    return qb;
  }

  return {
    async search(s: UserSearch): Promise<{ rows: UserRow[]; total: number }> {
      const [countRow] = await filtered(s).count({ count: '*' });
      const total = toCount(countRow?.count);
      if (total === 0) return { rows: [], total };
      const rows: UserRow[] = await filtered(s)
        .select('users.id', 'users.username', 'users.email', 'users.firstname', 'users.middlename', 'users.lastname', 'users.is_active')
        // lower(username) is the unique index's expression: ordered reads walk the index.
        .orderByRaw('lower(users.username) asc, users.id asc')
        .limit(s.limit)
        .offset(s.offset);
      return { rows, total };
    },
  };
}
