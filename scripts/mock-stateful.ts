// `npm run mock:stateful`: the real server with demo data on an in-memory embedded database, on 127.0.0.1:4011.
// Writes persist until the process stops (unlike `npm run mock`), and nothing is kept afterwards: uploads and the
// signing secret live in a temporary directory that is removed on exit. Set MOCK_PORT to use another port.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../server/src/main.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-mock-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));

Object.assign(process.env, {
  DATABASE_URL: 'memory://',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: process.env.MOCK_PORT ?? '4011',
  STORAGE: 'local',
});

await main();
