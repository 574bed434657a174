import { TooManyRequestsError } from '../../core/errors.js';

/**
 * Who asks for a password hash. `sign-in`: a sign-in from a client with no failures, or from a device the account
 * signed in on before (its device cookie); `other`: everything else (a client that has failed, a password change, an
 * administrator setting a password). Sign-ins go first, so no flood of the others can keep the owner waiting.
 */
export type HashLane = 'sign-in' | 'other';

/**
 * Bounds how many password hashes run at once. scrypt takes tens of milliseconds of a core each; without a bound a
 * flood of sign-ins would take every core and thread from the signed-in users' requests. Beyond the running ones, each
 * lane has a bounded queue; when a lane's queue is full its request is refused with 429 at once, and the other lane is
 * not affected. A freed slot goes to the oldest waiting sign-in first. The other lane never holds every slot: with
 * several, it leaves one to sign-ins; with a single one, sign-ins have one more of their own. So a clean sign-in never
 * waits for a flood of the others, only for sign-ins ahead of it.
 */
export interface HashGate {
  run<T>(task: () => Promise<T>, lane?: HashLane): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function hashGate(concurrency: number, queueLimit: number): HashGate {
  const limit: Record<HashLane, number> = { 'sign-in': concurrency, other: Math.max(1, concurrency - 1) };
  /** All lanes together: the configured bound, or two (one each) when that is one. */
  const total = Math.max(concurrency, 2);
  const running: Record<HashLane, number> = { 'sign-in': 0, other: 0 };
  const queues: Record<HashLane, Array<() => void>> = { 'sign-in': [], other: [] };
  const mayStart = (lane: HashLane) => running[lane] < limit[lane] && running['sign-in'] + running.other < total;

  const startNext = () => {
    // The oldest waiting sign-in first; then the other lane, within its share. The slot is taken here, before the
    // waiter resumes, so two releases in a row never hand out more slots than there are.
    for (;;) {
      const lane = (['sign-in', 'other'] as const).find((l) => queues[l].length > 0 && mayStart(l));
      if (!lane) return;
      running[lane]++;
      queues[lane].shift()!();
    }
  };

  return {
    get running() {
      return running['sign-in'] + running.other;
    },
    get waiting() {
      return queues['sign-in'].length + queues.other.length;
    },
    async run<T>(task: () => Promise<T>, lane: HashLane = 'other'): Promise<T> {
      if (mayStart(lane)) running[lane]++;
      else {
        const queue = queues[lane];
        if (queue.length >= queueLimit) {
          const capacity = limit[lane] + queueLimit;
          throw new TooManyRequestsError('The server is busy checking other passwords; try again in 1 second.', 1, {
            RateLimit: `limit=${capacity}, remaining=0, reset=1`,
            'RateLimit-Policy': `${capacity};w=1`,
          });
        }
        await new Promise<void>((resolve) => queue.push(resolve));
      }
      try {
        return await task();
      } finally {
        running[lane]--;
        startNext();
      }
    },
  };
}

// Until the app configures it (AUTH_HASH_CONCURRENCY): the bound of a small machine.
export const DEFAULT_HASH_CONCURRENCY = 1;
export const DEFAULT_HASH_QUEUE = 32;

// One per process: the cores it protects are the process's, whichever app instance asks.
let shared = hashGate(DEFAULT_HASH_CONCURRENCY, DEFAULT_HASH_QUEUE);

/** The process's password-hash gate. */
export function passwordHashGate(): HashGate {
  return shared;
}

/** Sets the process's bounds (the app does, from AUTH_HASH_CONCURRENCY and AUTH_HASH_QUEUE). */
export function configurePasswordHashGate(concurrency: number, queueLimit: number): void {
  shared = hashGate(concurrency, queueLimit);
}
