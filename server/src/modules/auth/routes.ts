import express from 'express';
import { BadRequestError } from '../../http/errors.js';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { authService } from './service.js';

export function authRouter({ knex, config }: ModuleDeps): express.Router {
  const auth = authService(knex, config.jwtSecret);
  const r = express.Router();

  r.post(
    '/api/auth/login',
    handle('login', async ({ body }) => {
      const login = body.username ?? body.email;
      if (!login) throw new BadRequestError('Send a username or an email address with the password.');
      return { status: 200, body: await auth.login(login, body.password) };
    }),
  );
  r.post('/api/auth/refresh-token', handle('refreshToken', async ({ body }) => ({ status: 200, body: await auth.refresh(body.refresh_token) })));
  r.post(
    '/api/auth/logout',
    handle('logout', async ({ body }) => {
      await auth.logout(body.refresh_token);
      return { status: 204 };
    }),
  );
  r.get(
    '/api/user/permission/platform',
    handle('getPlatformPermissions', async ({ req }) => ({
      status: 200,
      body: (await auth.platformPermissions(authOf(req).userId)) as never,
    })),
  );
  return r;
}
