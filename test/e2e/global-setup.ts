// Builds the console and starts the product as `npm start` does, on a fresh embedded database and a free port.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startProcess, waitForServer } from '../support/processes.js';
import { startTestIdp } from '../support/oidc-idp.js';
import { IDP_ACCOUNTS, SSO_PROVIDERS } from './support/idp.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    screenshotDir: string;
  }
}

export default async function setup(project: TestProject) {
  // E2E_BASE_URL points the flows at a console that is already running (for working on one flow); nothing is built.
  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseUrl', external.replace(/\/$/, ''));
    project.provide('screenshotDir', 'test-results/e2e');
    return;
  }

  // Always rebuild: the flows must exercise the console as it is in the work tree, not an older build.
  // A development build on purpose: React reports its warnings only there, and the flows fail on any console warning.
  // It goes to its own folder, so `npm start` keeps serving the production build in admin-ui/dist.
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const consoleDir = join(dataDir, 'console');
  execFileSync(
    'node_modules/.bin/vite',
    ['build', '--config', 'admin-ui/vite.config.ts', '--logLevel', 'error', '--outDir', consoleDir],
    {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'development' },
    },
  );

  // Single sign-on: a real OpenID Connect provider on a loopback port, and one that cannot be reached (nothing listens
  // on port 9) for the login page's provider_unavailable. The provider registers the product's callback, so it
  // answers once the product's address is known, before the product starts (the product needs its issuer).
  const idp = await startTestIdp(IDP_ACCOUNTS, { providerIds: [SSO_PROVIDERS.testIdp.id] });
  const oidcProviders = [
    idp.providerConfig({ ...SSO_PROVIDERS.testIdp, jit_provisioning: true }),
    { ...SSO_PROVIDERS.down, issuer: 'http://127.0.0.1:9', client_id: 'x', client_secret: 'y' },
  ];

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  idp.serve([baseUrl]);
  const server = startProcess('node_modules/.bin/tsx', ['scripts/start.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CONSOLE_DIR: consoleDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    // Every flow signs in from 127.0.0.1, several within seconds: the per-address sign-in rate of a real deployment
    // would refuse the suite itself. Sign-in protection has its own tests (test/server/sign-in-protection.test.ts).
    AUTH_RATE_PER_IP: '1000/10s',
    // Likewise every other operation: the suite drives many screens a minute as one account.
    RATE_LIMIT_PER_CREDENTIAL: '1000000/1s',
    RATE_LIMIT_PER_ADDRESS: '1000000/1s',
    OIDC_PROVIDERS: JSON.stringify(oidcProviders),
  });
  try {
    await waitForServer(server, `${baseUrl}/healthz`, 60_000);
  } catch (error) {
    await server.stop();
    await idp.close();
    throw new Error(`the server did not start:\n${server.output()}\n${String(error)}`);
  }
  project.provide('baseUrl', baseUrl);
  project.provide('screenshotDir', 'test-results/e2e');

  return async () => {
    await server.stop();
    await idp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
