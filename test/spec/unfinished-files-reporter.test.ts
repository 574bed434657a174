// The run's summary names a file whose worker died while it ran: vitest alone says only "Worker exited unexpectedly".
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'worker-crash');

describe('the unfinished-files reporter', () => {
  it('when a worker is killed mid-file, then the run fails and names that file and the test that was running', () => {
    const run = spawnSync('node_modules/.bin/vitest', ['run', '--config', path.join(fixtures, 'vitest.config.ts')], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 50_000,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.status, out).not.toBe(0);
    expect(out).toContain('Started but never finished');
    expect(out).toMatch(/^ {2}dies\.fixture\.ts$/m);
    expect(out).toContain('not reported finished: is running when the worker dies');
  });
});
