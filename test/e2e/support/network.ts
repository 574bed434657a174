// Records the API calls a page makes, so a flow can assert that a step sent (or did not send) a request,
// and wait until the calls it started have been answered.
import type { Page, Request } from 'playwright-core';

export interface ApiCall {
  method: string;
  path: string;
}

export class ApiRecorder {
  private calls: ApiCall[] = [];
  private readonly inFlight = new Set<Request>();
  /** Callers of `idle()` waiting for the calls in flight to settle. */
  private readonly idleWaiters = new Set<() => void>();

  constructor(page: Page) {
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api')) return;
      this.calls.push({ method: request.method(), path: url.pathname });
      this.inFlight.add(request);
    });
    page.on('requestfinished', (request) => this.settle(request));
    page.on('requestfailed', (request) => this.settle(request));
  }

  private settle(request: Request): void {
    this.inFlight.delete(request);
    if (this.inFlight.size > 0) return;
    for (const wake of this.idleWaiters) wake();
    this.idleWaiters.clear();
  }

  /** Forgets what was recorded so far. */
  reset(): void {
    this.calls = [];
  }

  /** Calls recorded since the last reset, optionally only those matching `method` and a path pattern. */
  recorded(filter: { method?: string; path?: RegExp } = {}): ApiCall[] {
    return this.calls.filter(
      (c) => (!filter.method || c.method === filter.method) && (!filter.path || filter.path.test(c.path)),
    );
  }

  /** Calls other than reads (POST, PUT, PATCH, DELETE). */
  writes(): ApiCall[] {
    return this.calls.filter((c) => c.method !== 'GET' && c.method !== 'HEAD' && c.method !== 'OPTIONS');
  }

  /**
   * Resolves once every API call started so far has been answered (or failed): at once when none is in flight,
   * otherwise when the last one settles. Fails, naming the calls still pending, after `timeoutMs`.
   */
  idle(timeoutMs = 10_000): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(deadline);
        resolve();
      };
      const deadline = setTimeout(() => {
        this.idleWaiters.delete(wake);
        const pending = [...this.inFlight].map((r) => `${r.method()} ${new URL(r.url()).pathname}`);
        reject(new Error(`API calls still pending after ${timeoutMs} ms: ${pending.join(', ')}`));
      }, timeoutMs);
      this.idleWaiters.add(wake);
    });
  }
}
