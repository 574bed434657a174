// The deployment files CI cannot run here (there is no container daemon) are held to what it does run: the
// Dockerfile's steps are the commands of the production build test, its health check answers as /readyz does, the
// compose file wires the image to PostgreSQL without a default secret, and the guide quotes the nginx file as shipped.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../support/processes.js';
import { SHIPPED_CONFIG } from './nginx.js';
import { BUILD, BUILD_OUTPUT, INSTALL_ALL, INSTALL_PRODUCTION, START } from './production-steps.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  /** The instruction's own flags (`--from=build`, `--mount=...`, `--interval=15s`). */
  flags: string[];
  /** The rest: a shell command or an exec-form JSON array, as written. */
  rest: string;
}
interface Stage {
  name: string;
  from: string;
  steps: Instruction[];
}

/** The Dockerfile's stages: continuation lines joined, comments and parser directives dropped. */
function dockerfileStages(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', tail = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const flags: string[] = [];
    let rest = tail.replace(/\s+/g, ' ');
    for (let m = /^(--\S+)\s+/.exec(rest); m; m = /^(--\S+)\s+/.exec(rest)) {
      flags.push(m[1]!);
      rest = rest.slice(m[0].length);
    }
    const instruction = { keyword: keyword.toUpperCase(), flags, rest };
    if (instruction.keyword === 'FROM') {
      const [, from = '', name = ''] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      stages.push({ name, from, steps: [] });
    } else stages.at(-1)?.steps.push(instruction);
  }
  return stages;
}

const words = (command: string) => command.split(' ');
const runs = (stage: Stage) => stage.steps.filter((s) => s.keyword === 'RUN').map((s) => words(s.rest));
const only = (stage: Stage, keyword: string) => {
  const found = stage.steps.filter((s) => s.keyword === keyword);
  expect(found, `${stage.name}: one ${keyword}`).toHaveLength(1);
  return found[0]!;
};

describe('the Dockerfile', () => {
  const stages = dockerfileStages(read('Dockerfile'));
  const [build, runtime] = stages;

  it('when read, then it builds in one stage and runs in another, from a supported Node image', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(build!.from).toBe(runtime!.from);
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(read('Dockerfile'));
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(Number(image?.[1]), `the image's Node satisfies engines ${engines}`).toBeGreaterThanOrEqual(
      Number(/\d+/.exec(engines)![0]),
    );
  });

  it('when building, then it installs and builds with the commands CI runs', () => {
    expect(runs(build!)).toEqual([INSTALL_ALL, BUILD]);
    // The full install is .ci/run's own: the build test builds on what it installed.
    expect(read('.ci/run').split('\n')).toContain(INSTALL_ALL.join(' '));
  });

  it('when running, then it holds the build output and production dependencies installed as the build test installs them', () => {
    const copy = only(runtime!, 'COPY');
    expect(copy.flags).toEqual(['--from=build']);
    const workdir = only(runtime!, 'WORKDIR').rest;
    expect(words(copy.rest)).toEqual([`${only(build!, 'WORKDIR').rest}/${BUILD_OUTPUT}/`, './']);
    expect(workdir).toBe('/app');
    const install = runtime!.steps.find((s) => s.keyword === 'RUN' && s.rest.startsWith('npm ci'))!;
    expect(words(install.rest)).toEqual(INSTALL_PRODUCTION);
    // --offline needs the cache the build stage filled.
    expect(install.flags).toEqual(['--mount=type=bind,from=build,source=/root/.npm,target=/root/.npm,rw']);
  });

  it('when started, then it runs the built start as an unprivileged user', () => {
    const keywords = runtime!.steps.map((s) => s.keyword);
    const user = only(runtime!, 'USER').rest;
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(keywords.indexOf('USER')).toBeLessThan(keywords.indexOf('CMD'));
    // Nothing after USER runs as root again.
    expect(keywords.slice(keywords.indexOf('USER') + 1)).not.toContain('RUN');
    expect(JSON.parse(only(runtime!, 'CMD').rest)).toEqual(START);
    const env = only(runtime!, 'ENV').rest;
    expect(env).toContain(`PORT=${only(runtime!, 'EXPOSE').rest}`);
    expect(env).toContain('NODE_ENV=production');
  });

  it('when its health check asks /readyz, then it passes on ready and fails on not ready or no answer', async () => {
    const check = only(runtime!, 'HEALTHCHECK');
    const [cmd, ...command] = words(check.rest);
    expect(cmd).toBe('CMD');
    const [node, flag, script] = JSON.parse(command.join(' ')) as string[];
    expect([node, flag]).toEqual(['node', '-e']);
    let ready = true;
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.statusCode = ready ? 200 : 503;
      res.end();
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const exitCode = () =>
      promisify(execFile)(process.execPath, ['-e', script!], { env: { ...process.env, PORT: String(port) } }).then(
        () => 0,
        (e: { code?: number }) => e.code ?? -1,
      );
    try {
      expect(await exitCode()).toBe(0);
      ready = false;
      expect(await exitCode()).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await exitCode()).toBe(1);
    expect(asked).toEqual(['/readyz', '/readyz']);
  });

  it('when the build context is sent, then installed trees, data, backups and local settings stay out', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of ['.git', 'node_modules', 'dist', 'var', 'backups', '.env']) expect(ignored).toContain(entry);
  });
});

describe('compose.yaml', () => {
  interface Service {
    build?: string;
    image?: string;
    depends_on?: Record<string, { condition: string }>;
    environment?: Record<string, string>;
    ports?: string[];
    healthcheck?: unknown;
  }
  const compose = parseYaml(read('compose.yaml')) as { services: Record<string, Service> };

  it('when read, then the image waits for a healthy PostgreSQL and needs its secrets given, never defaulted', () => {
    const { app, db } = compose.services;
    expect(app?.build).toBe('.');
    expect(db?.image).toMatch(/^postgres:1[5-9]/);
    expect(db?.healthcheck).toBeTruthy();
    expect(app?.depends_on?.db?.condition).toBe('service_healthy');
    expect(new URL(app!.environment!.DATABASE_URL!.replace(/\$\{[^}]*\}/g, 'x')).hostname).toBe('db');
    for (const secret of ['JWT_SECRET', 'ADMIN_PASSWORD'])
      expect(app?.environment?.[secret], secret).toMatch(new RegExp(`^\\$\\{${secret}:\\?[^}]+\\}$`));
    expect(app?.ports).toEqual(['127.0.0.1:3000:3000']);
  });
});

describe('the operations guide', () => {
  it('when it shows the nginx configuration, then it is the shipped file, word for word', () => {
    const guide = read('docs/operations.md');
    const block = /```nginx\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(block, 'docs/operations.md has an nginx block').toBeDefined();
    expect(block).toBe(readFileSync(SHIPPED_CONFIG, 'utf8'));
  });
});
