// Debian's nginx as a child process of the test, with the shipped configuration: its own prefix, pid file, logs and
// temporary paths in a directory of the test's, on free ports, never the system service.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../support/processes.js';

export const SHIPPED_CONFIG = path.resolve(import.meta.dirname, '../../deploy/nginx/platform-admin.conf');

/** The nginx executable: on PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
export function nginxBinary(): string {
  for (const dir of [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin']) {
    const candidate = path.join(dir, 'nginx');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('nginx is not installed: apt-get install -y nginx (.ci/run installs it when missing)');
}

/** A self-signed certificate for 127.0.0.1 and localhost, made now; the certificate is also the clients' only CA. */
export function selfSignedCertificate(dir: string): { certificate: string; key: string; ca: Buffer } {
  const certificate = path.join(dir, 'proxy.pem');
  const key = path.join(dir, 'proxy.key');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=platform-admin proxy test',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { stdio: 'pipe' },
  );
  return { certificate, key, ca: readFileSync(certificate) };
}

export interface Deployment {
  replicas: string[];
  plainPort: number;
  tlsPort: number;
  certificate: string;
  key: string;
}

/**
 * The shipped configuration with this machine's addresses, ports and certificate in place of the example ones. Each
 * example value must be found exactly where the file says, so an edit that moves or renames one fails here instead
 * of leaving the test running some other configuration.
 */
export function deployedConfig(shipped: string, d: Deployment): string {
  const replace = (text: string, from: RegExp, to: string) => {
    const hits = text.match(new RegExp(from.source, 'gm'))?.length ?? 0;
    if (hits !== 1) throw new Error(`${SHIPPED_CONFIG}: expected one ${String(from)}, found ${hits}`);
    return text.replace(from, to);
  };
  let text = shipped;
  text = replace(text, /^(\s*)server 10\.0\.0\.11:3000 /m, `$1server ${d.replicas[0]} `);
  text = replace(text, /^(\s*)server 10\.0\.0\.12:3000 /m, `$1server ${d.replicas[1]} `);
  text = replace(text, /^(\s*)listen 80;/m, `$1listen 127.0.0.1:${d.plainPort};`);
  text = replace(text, /^(\s*)listen 443 ssl;/m, `$1listen 127.0.0.1:${d.tlsPort} ssl;`);
  text = replace(
    text,
    /^(\s*)ssl_certificate \/etc\/ssl\/certs\/admin\.example\.com\.pem;/m,
    `$1ssl_certificate ${d.certificate};`,
  );
  text = replace(
    text,
    /^(\s*)ssl_certificate_key \/etc\/ssl\/private\/admin\.example\.com\.key;/m,
    `$1ssl_certificate_key ${d.key};`,
  );
  return text;
}

export interface Nginx {
  /** The certificate nginx serves, the clients' only CA. */
  ca: Buffer;
  plainUrl: string;
  tlsUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground on `dir` with the shipped configuration in front of `replicas`; waits for both ports. */
export async function startNginx(dir: string, replicas: string[]): Promise<Nginx> {
  const binary = nginxBinary();
  const { certificate, key, ca } = selfSignedCertificate(dir);
  const [plainPort, tlsPort] = [await freePort(), await freePort()];
  const site = path.join(dir, 'platform-admin.conf');
  writeFileSync(
    site,
    deployedConfig(readFileSync(SHIPPED_CONFIG, 'utf8'), { replicas, plainPort, tlsPort, certificate, key }),
  );
  // nginx's workers drop root for nobody, who must reach the temporary paths nginx makes (and chowns) in here.
  chmodSync(dir, 0o755);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      ...(process.getuid?.() === 0 ? ['user nobody nogroup;'] : []),
      `pid ${path.join(dir, 'nginx.pid')};`,
      'error_log stderr warn;',
      'events { worker_connections 512; }',
      'http {',
      `  access_log ${path.join(dir, 'access.log')};`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${temp(t)}`),
      `  include ${site};`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const plainUrl = `http://127.0.0.1:${plainPort}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (!alive()) throw new Error(`nginx exited at start:\n${output}`);
    try {
      // Any answer will do: nginx is listening (the replicas' probes pass through it).
      await (await fetch(`${plainUrl}/healthz`)).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer on ${plainUrl}:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    ca,
    plainUrl,
    tlsUrl: `https://127.0.0.1:${tlsPort}`,
    output: () => output,
    async stop() {
      if (!alive()) return;
      // SIGQUIT is nginx's graceful stop; SIGTERM its fast one. Either way the master reaps its worker.
      child.kill('SIGTERM');
      const t = setTimeout(() => alive() && child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}
