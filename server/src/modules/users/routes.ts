import { operations } from '../../http/handler.js';
import type { UserService } from './service.js';

export function userRoutes(users: UserService) {
  return operations({
    searchUsers: async ({ query }) => ({ status: 200, body: await users.search(query) }),
  });
}
