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

  constructor(page: Page) {
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api')) return;
      this.calls.push({ method: request.method(), path: url.pathname });
      this.inFlight.add(request);
    });
    page.on('requestfinished', (request) => this.inFlight.delete(request));
    page.on('requestfailed', (request) => this.inFlight.delete(request));
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

  /** Resolves once every API call started so far has been answered (or failed). */
  async idle(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight.size > 0) {
      if (Date.now() > deadline) throw new Error(`API calls still pending after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
