import { TooManyRequestsError } from '../../core/errors.js';

/**
 * Bounds how many password hashes run at once. scrypt takes tens of milliseconds of a core each; without a bound a
 * flood of sign-ins would take every core and thread from the signed-in users' requests. Beyond the running ones, a
 * bounded queue waits its turn; when the queue is full the sign-in is refused with 429 at once.
 */
export interface HashGate {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function hashGate(concurrency: number, queueLimit: number): HashGate {
  let running = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < concurrency) running++;
      else if (queue.length < queueLimit) await new Promise<void>((resolve) => queue.push(resolve));
      else {
        const capacity = concurrency + queueLimit;
        throw new TooManyRequestsError('The server is busy checking other sign-ins; try again in 1 second.', 1, {
          RateLimit: `limit=${capacity}, remaining=0, reset=1`,
          'RateLimit-Policy': `${capacity};w=1`,
        });
      }
      // A finished task hands its slot straight to the next in the queue, so `running` stays counted.
      try {
        return await task();
      } finally {
        release();
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
