import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests node's HTTP parser refuses before express sees them (headers or URL over the limit, a malformed request
 * line or header, a request timeout) are answered as problems too: node's default reply is a bare status line with
 * no body, which breaks the "every 4xx is application/problem+json" rule.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const detail =
      status === 431
        ? 'The request line or headers are too large'
        : status === 408
          ? 'The request took too long to arrive'
          : 'The request is not valid HTTP';
    const body = JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status], status, detail });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
