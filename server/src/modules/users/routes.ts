import express from 'express';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { userService } from './service.js';

export function usersRouter({ knex }: ModuleDeps): express.Router {
  const users = userService({ knex });
  const r = express.Router();
  r.get('/api-system/user', handle('searchUsers', async ({ req, query }) => ({ status: 200, body: await users.search(authOf(req), query) })));
  return r;
}
