// agent-functions mcp: lists and revokes the deployed Worker's OAuth clients through its owner
// endpoints with the manifest key, and says plainly what went wrong. The Worker's side of those
// endpoints is tested in workerd (src/test/mcp/trust.test.ts); here a stand-in answers as it does.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { manifestKey } from 'agent-functions/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP, runMcp } from '../mcp/main.ts';
import { capture } from './capture.ts';

const SECRET = 'fs-Q3jx9vT0bq8hV1dYl2mKc7pR';
const received: Array<{ method: string; url: string; authorization: string | undefined }> = [];
let origin = '';
let close: () => void;

beforeAll(async () => {
  const key = await manifestKey(SECRET);
  const server = createServer((request: IncomingMessage, response) => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    if (request.headers.authorization !== `Bearer ${key}`) return response.writeHead(401).end('{}');
    if (request.method === 'GET' && request.url === '/oauth/clients') {
      return response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          clients: [
            {
              clientId: 'c1',
              clientName: 'Claude',
              redirectUris: ['http://127.0.0.1:5000/cb'],
              registeredAt: '2026-11-20T10:00:00.000Z',
              grants: 1,
            },
            {
              clientId: 'c2',
              clientName: '\u001b[1A\u001b[2K\r\u001b]0;owned\u0007\u001b[8mhidden\u202e',
              redirectUris: ['http://127.0.0.1:5001/cb\u001b[2K'],
              registeredAt: '2026-11-21T10:00:00.000Z',
              grants: 0,
            },
          ],
        }),
      );
    }
    if (request.method === 'DELETE' && request.url === '/oauth/clients/c1')
      return response.writeHead(200).end('{"revoked":"c1"}');
    return response.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const run = async (
  argv: string[],
  env: Record<string, string> = { FUNCTIONS_BASE_URL: origin, FUNCTIONS_SECRET: SECRET },
) => {
  const out = capture();
  const err = capture();
  const code = await runMcp(argv, { env, stdout: out.stream, stderr: err.stream });
  return { code, out: out.text(), err: err.text() };
};

describe('agent-functions mcp', () => {
  it('lists the clients with the manifest key, one line each, and how to revoke one', async () => {
    const result = await run(['clients']);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'c1  Claude  1 grant(s)  registered 2026-11-20T10:00:00.000Z  → http://127.0.0.1:5000/cb',
    );
    expect(result.out).toContain('agent-functions mcp revoke <id>');
    expect(received.at(-1)).toMatchObject({
      method: 'GET',
      url: '/oauth/clients',
      authorization: `Bearer ${await manifestKey(SECRET)}`,
    });
    expect((await run(['clients', '--json'])).out).toContain('"clientId":"c1"');
  });

  it("prints a client's name and urls with their control characters made harmless", async () => {
    const { out } = await run(['clients']);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(out).toContain('c2  ');
    expect(out).toContain('hidden');
    expect(out.split('\n').filter((line) => line.startsWith('c'))).toHaveLength(2);
    const json = (await run(['clients', '--json'])).out;
    expect(json).not.toMatch(/[\u202a-\u202e]/);
    expect(JSON.parse(json).clients[1].clientName).toContain('hidden\u202e');
  });

  it('revokes one, and names a client that is not there', async () => {
    expect(await run(['revoke', 'c1'])).toMatchObject({ code: 0, out: expect.stringContaining('Revoked c1') });
    expect(received.at(-1)).toMatchObject({ method: 'DELETE', url: '/oauth/clients/c1' });
    const unknown = await run(['revoke', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no client nope there');
  });

  it('says which setting is missing or weak, and when the Worker refuses the key', async () => {
    expect((await run(['clients'], { FUNCTIONS_SECRET: SECRET })).err).toContain('Missing FUNCTIONS_BASE_URL');
    expect((await run(['clients'], { FUNCTIONS_BASE_URL: origin, FUNCTIONS_SECRET: 'short' })).err).toContain(
      'too short',
    );
    const refused = await run(['clients'], { FUNCTIONS_BASE_URL: origin, FUNCTIONS_SECRET: `${SECRET}-other` });
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('the Worker refused the key') });
  });

  it('shows its help (exit 0) and its usage for anything else (exit 2)', async () => {
    expect(await run(['--help'])).toMatchObject({ code: 0, out: HELP });
    expect((await run([])).code).toBe(2);
    expect((await run(['revoke'])).code).toBe(2);
    expect((await run(['clients', '--nope'])).code).toBe(2);
  });
});
