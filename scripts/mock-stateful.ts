// `npm run mock:stateful`: the real server with demo data on an in-memory embedded database, on 127.0.0.1:4011.
// Writes persist until the process stops (unlike `npm run mock`), and nothing is kept afterwards: uploads and the
// signing secret live in a temporary directory that is removed on exit. Set MOCK_PORT to use another port.
// Like Prism, it answers CORS for any origin, so a console or tool served elsewhere can call it; MOCK_CORS=off stops
// that (CORS_ORIGINS then applies, as in the product).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../server/src/main.js';
import { corsForAnyOrigin } from './lib/cors-any-origin.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-mock-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));

const anyOrigin = !['off', 'false', '0', 'no'].includes((process.env.MOCK_CORS ?? 'on').trim().toLowerCase());

Object.assign(process.env, {
  DATABASE_URL: 'memory://',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: process.env.MOCK_PORT ?? '4011',
  STORAGE: 'local',
});

const running = await main(anyOrigin ? { front: corsForAnyOrigin } : {});
process.stderr.write(
  anyOrigin
    ? `CORS: any origin may call this mock (its origin is echoed, as Prism does); set MOCK_CORS=off to answer only the origins in CORS_ORIGINS.\n`
    : `CORS: ${running.config.corsOrigins.length ? `only ${running.config.corsOrigins.join(', ')}` : 'off (same origin only)'} (MOCK_CORS=off).\n`,
);
