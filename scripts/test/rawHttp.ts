// A request with any Host and Origin, as a browser on another site or a rebound name sends it;
// fetch() would not let a test set Host.
import { request as httpRequest } from 'node:http';

export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Sends one HTTP request to `url` with exactly these headers.
 * @example await rawRequest(`${url}/api/calls`, { headers: { host: 'evil.example' } })
 */
export const rawRequest = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'GET',
        headers: { host: target.host, ...init.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
