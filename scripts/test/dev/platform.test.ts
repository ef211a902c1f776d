import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalPlatform, startLocalPlatform } from '../../local/platform.ts';

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close();
});

/** Something that is not an emulator, holding a free port. */
const squatter = async (): Promise<number> => {
  const server: Server = createServer((_request, response) => response.end('not a platform'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(server);
  return (server.address() as AddressInfo).port;
};
const started = (platform: LocalPlatform) => {
  opened.push(platform.emulator);
  return platform;
};

describe("npm run dev's local platform", () => {
  it('never takes a busy default port for an emulator: it starts its own on a free port and says so', async () => {
    const taken = await squatter();
    const platform = started(await startLocalPlatform(undefined, taken));
    expect(platform.emulator.url).not.toContain(`:${taken}`);
    expect(platform.note).toBe(
      `port ${taken} is taken by another program, so dev's own local platform listens on ${platform.emulator.url}.`,
    );
    const response = await fetch(`${platform.emulator.url}/v1/contacts`, {
      headers: { 'x-api-key': platform.agencyKey },
    });
    // An empty account: what a project's functions need there, its dev.config.ts creates.
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('refuses a --platform-port that is taken, rather than using another', async () => {
    const taken = await squatter();
    await expect(startLocalPlatform(taken)).rejects.toThrow(`Port ${taken} (--platform-port) is taken.`);
  });
});
