import { TooManyRequestsError } from '../../core/errors.js';

/**
 * Who asks for a password hash, first served first. `device`: a sign-in from a browser this account signed in on
 * before (its device cookie) that has not failed since; `sign-in`: a sign-in from a client with no failures, or from a
 * known device that has; `other`: everything else (a client that has failed, a password change, an administrator
 * setting a password). No flood of strangers, however many addresses it comes from, stands in the owner's queue.
 */
export type HashLane = 'device' | 'sign-in' | 'other';

/** The lanes in the order a freed slot serves them. */
const LANES: readonly HashLane[] = ['device', 'sign-in', 'other'];

/**
 * Bounds how many password hashes run at once. scrypt takes tens of milliseconds of a core each; without a bound a
 * flood of sign-ins would take every core and thread from the signed-in users' requests. Beyond the running ones, each
 * lane has a bounded queue; when a lane's queue is full its request is refused with 429 at once, and the other lanes
 * are not affected. A freed slot goes to the first lane (`LANES`) with a waiter. The other lane never holds every slot:
 * with several, it leaves one to sign-ins; with a single one, sign-ins have one more of their own. So a clean sign-in
 * never waits for a flood of the others, and a known device's sign-in not even for a flood of strangers' sign-ins.
 */
export interface HashGate {
  run<T>(task: () => Promise<T>, lane?: HashLane): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function hashGate({ concurrency, queueLimit }: { concurrency: number; queueLimit: number }): HashGate {
  /** All lanes together: the configured bound, or two when that is one (the others never hold the last slot). */
  const total = Math.max(concurrency, 2);
  const limit: Record<HashLane, number> = {
    device: total,
    'sign-in': concurrency,
    other: Math.max(1, concurrency - 1),
  };
  const running: Record<HashLane, number> = { device: 0, 'sign-in': 0, other: 0 };
  const queues: Record<HashLane, Array<() => void>> = { device: [], 'sign-in': [], other: [] };
  const runningAll = () => running.device + running['sign-in'] + running.other;
  const mayStart = (lane: HashLane) => running[lane] < limit[lane] && runningAll() < total;

  const startNext = () => {
    // The first lane with a waiter, each within its share. The slot is taken here, before the
    // waiter resumes, so two releases in a row never hand out more slots than there are.
    for (;;) {
      const lane = LANES.find((l) => queues[l].length > 0 && mayStart(l));
      if (!lane) return;
      running[lane]++;
      queues[lane].shift()!();
    }
  };

  return {
    get running() {
      return runningAll();
    },
    get waiting() {
      return queues.device.length + queues['sign-in'].length + queues.other.length;
    },
    async run<T>(task: () => Promise<T>, lane: HashLane = 'other'): Promise<T> {
      if (mayStart(lane)) running[lane]++;
      else {
        const queue = queues[lane];
        if (queue.length >= queueLimit) {
          const capacity = limit[lane] + queueLimit;
          throw new TooManyRequestsError('The server is busy checking other passwords; try again in 1 second.', 1, {
            limit: capacity,
            windowSeconds: 1,
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

// Until `main.ts` configures it (AUTH_HASH_CONCURRENCY): the bound of a small machine.
export const DEFAULT_HASH_CONCURRENCY = 1;
export const DEFAULT_HASH_QUEUE = 32;

// One per process: the cores it protects are the process's, whichever app instance asks.
let shared = hashGate({ concurrency: DEFAULT_HASH_CONCURRENCY, queueLimit: DEFAULT_HASH_QUEUE });

/** The process's password-hash gate. */
export function passwordHashGate(): HashGate {
  return shared;
}

/** Sets the process's bounds: `main.ts` does, once, from AUTH_HASH_CONCURRENCY and AUTH_HASH_QUEUE. */
export function configurePasswordHashGate(concurrency: number, queueLimit: number): void {
  shared = hashGate({ concurrency, queueLimit });
}
