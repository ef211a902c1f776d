// The local platform hands out signing secrets and keeps contacts: a web page on another site must
// not use it with the local keys (a cross-site form post carries that site's Origin), nor read it
// through a rebound host name. The Worker, sync and the CLI, which send no Origin, are served.
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../rawHttp.ts';
import { clientOf, keyOf, useEmulator } from './helpers.ts';

const emulator = useEmulator();

describe('the local platform', () => {
  it('refuses a cross-site form post creating a webhook with a local key, and creates nothing', async () => {
    const answer = await rawRequest(`${emulator.current.url}/v1/webhooks?apiKey=${keyOf(emulator.current)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({ url: 'https://evil.example/hook', events: ['message.received'] }),
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'foreign_origin' } });
    const { client } = clientOf(emulator.current);
    const hooks = await client.webhooks.list();
    expect(hooks.map((hook) => hook.url)).not.toContain('https://evil.example/hook');
  });

  it('refuses a rebound host name', async () => {
    const port = new URL(emulator.current.url).port;
    const answer = await rawRequest(`${emulator.current.url}/v1/custom-functions`, {
      headers: { host: `rebound.evil.example:${port}`, 'x-api-key': keyOf(emulator.current) },
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'unknown_host' } });
  });

  it('serves programs by this machine’s names', async () => {
    const port = new URL(emulator.current.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await rawRequest(`${emulator.current.url}/v1/custom-functions`, {
        headers: { host, 'x-api-key': keyOf(emulator.current) },
      });
      expect(answer.status, host).toBe(200);
    }
  });
});
