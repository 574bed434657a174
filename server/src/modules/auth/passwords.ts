import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

// scrypt$N$r$p$salt$hash (base64url); parameters stored so they can be raised later without a migration.
const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function threadPoolScrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

// Password hashing runs in worker threads at a low scheduling priority (on Linux the nice value is per thread): under a
// flood of sign-ins the hashes take the cores' idle time, and the signed-in users' requests on the main thread are
// scheduled first (bench/FINDINGS.md, login flood). The sign-ins of clean clients (the owner's) have a worker of their
// own at the normal priority: on a busy machine a low-priority hash could wait seconds for a core, and the gate already
// bounds how many hashes run at once. Inline source, so it runs the same from tsx, vitest and the build.
const HASH_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
if (workerData.nice) { try { require('node:os').setPriority(workerData.nice); } catch {} }
parentPort.on('message', ({ id, password, salt, keylen, opts }) => {
  try {
    const key = scryptSync(password, Buffer.from(salt), keylen, opts);
    parentPort.postMessage({ id, key });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});`;

interface HashWorker {
  worker: Worker;
  pending: Map<number, { resolve: (key: Buffer) => void; reject: (error: Error) => void }>;
}

const WORKER_COUNT = Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));
/** The nice value of the workers that hash for everyone but clean sign-ins. */
const LOW_PRIORITY = 15;
let workers: HashWorker[] | null = null;
let urgent: HashWorker | null = null;
let nextId = 0;

/** Which workers hash: `urgent` for a sign-in that goes first (a clean client, a known device), else `background`. */
export type HashPriority = 'urgent' | 'background';

function startWorker(nice: number, onExit: (entry: HashWorker) => void): HashWorker {
  const worker = new Worker(HASH_WORKER_SOURCE, { eval: true, workerData: { nice } });
  const entry: HashWorker = { worker, pending: new Map() };
  worker.on('message', (m: { id: number; key?: Uint8Array; error?: string }) => {
    const waiting = entry.pending.get(m.id);
    entry.pending.delete(m.id);
    if (entry.pending.size === 0) worker.unref();
    if (m.key) waiting?.resolve(Buffer.from(m.key));
    else waiting?.reject(new Error(m.error ?? 'password hashing failed'));
  });
  worker.on('error', (error) => {
    // A worker that died takes its waiting hashes with it; the next hash starts a new one.
    for (const w of entry.pending.values()) w.reject(error);
    entry.pending.clear();
    onExit(entry);
  });
  // A worker keeps the process alive only while it owes a hash: a process that once hashed a password (a seed, a CLI)
  // must still exit. After the listeners, since adding a 'message' listener refs the worker's port again.
  worker.unref();
  return entry;
}

function workerFor(priority: HashPriority): HashWorker {
  if (priority === 'urgent') {
    urgent ??= startWorker(0, (gone) => {
      if (urgent === gone) urgent = null;
    });
    return urgent;
  }
  workers ??= [];
  while (workers.length < WORKER_COUNT) {
    workers.push(
      startWorker(LOW_PRIORITY, (gone) => {
        if (workers) workers = workers.filter((w) => w !== gone);
      }),
    );
  }
  return workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
}

function scryptAsync(
  password: string,
  salt: Buffer,
  keylen: number,
  opts: ScryptOptions,
  priority: HashPriority = 'background',
): Promise<Buffer> {
  let entry: HashWorker;
  try {
    entry = workerFor(priority);
  } catch {
    return threadPoolScrypt(password, salt, keylen, opts);
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    if (entry.pending.size === 0) entry.worker.ref();
    entry.pending.set(id, { resolve, reject });
    entry.worker.postMessage({ id, password, salt, keylen, opts });
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEYLEN, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(
  password: string,
  stored: string,
  priority: HashPriority = 'background',
): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyB64, 'base64url');
  const key = await scryptAsync(
    password,
    Buffer.from(saltB64, 'base64url'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    },
    priority,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A fixed hash compared against when the user does not exist, so timing does not reveal it. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(12).toString('hex'));
  return dummyHash;
}
