// The data directory holds the embedded database (password hashes included) and the uploads: it is private, and a
// killed upload leaves nothing behind after the next start.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { start } from '../../server/src/main.js';

function entries(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? [p, ...entries(p)] : [p];
  });
}

describe('data directory', () => {
  it('when the server starts on a directory with loose modes and a half-written upload, then everything is private and the leftover is gone', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-datadir-'));
    const uploads = path.join(dataDir, 'uploads');
    mkdirSync(uploads, { recursive: true });
    chmodSync(dataDir, 0o777);
    chmodSync(uploads, 0o777);
    const leftover = path.join(uploads, '0b6c5d2e-2f4a-4c1e-9a57-3f1f8f0a2b11.png.123.456.tmp');
    writeFileSync(leftover, 'partial');
    const loose = path.join(uploads, 'note.txt');
    writeFileSync(loose, 'x');
    chmodSync(loose, 0o666);
    const running = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' });
    try {
      expect(existsSync(leftover)).toBe(false);
      const all = [dataDir, ...entries(dataDir)];
      expect(all.length).toBeGreaterThan(100); // the embedded database's files are there
      const open = all
        .filter((p) => (statSync(p).mode & 0o077) !== 0)
        .map((p) => `${path.relative(dataDir, p)} ${(statSync(p).mode & 0o777).toString(8)}`);
      expect(open).toEqual([]);
    } finally {
      await running.stop();
      process.umask(0o022);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
