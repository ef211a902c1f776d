import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDevArgs } from '../../dev/args.ts';
import { chooseWorkerPort, hostsOf, portFree } from '../../dev/ports.ts';
import { freePort } from './harness.ts';

const held: Server[] = [];
const hold = async (port: number, host = '127.0.0.1') => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  held.push(server);
};
afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("the Worker's port under npm run dev", () => {
  it('is the default when it is free', async () => {
    const port = await freePort();
    expect(await chooseWorkerPort(undefined, ['127.0.0.1'], port)).toEqual({ port });
  });

  it('is a free one, said, when another program holds the default', async () => {
    const taken = await freePort();
    await hold(taken);
    const chosen = await chooseWorkerPort(undefined, ['127.0.0.1'], taken);
    expect(chosen.port).not.toBe(taken);
    expect(await portFree(chosen.port, '127.0.0.1')).toBe(true);
    expect(chosen.note).toBe(
      `port ${taken} is taken by another program, so the Worker listens on port ${chosen.port}.`,
    );
  });

  it('is --port when free, and refused with one line when another program holds it', async () => {
    const port = await freePort();
    expect(await chooseWorkerPort(port, ['127.0.0.1'])).toEqual({ port });
    await hold(port);
    await expect(chooseWorkerPort(port, ['127.0.0.1'])).rejects.toThrow(
      `Port ${port} (--port) is taken by another program. Stop that program, or choose another port (npm run dev -- --port 9000), or leave --port out and dev picks a free one.`,
    );
  });

  it("counts a port held on any of wrangler's default addresses (localhost: both loopbacks) as taken", async () => {
    expect(hostsOf(undefined)).toEqual(['127.0.0.1', '::1']);
    expect(hostsOf('0.0.0.0')).toEqual(['0.0.0.0']);
    const port = await freePort();
    await hold(port, '0.0.0.0');
    expect(await portFree(port, '127.0.0.1')).toBe(false);
  });

  it('knows whether --port and --ip were given', () => {
    expect(parseDevArgs([])).toMatchObject({ port: 8787, portGiven: false, ipGiven: false });
    expect(parseDevArgs(['--port=9000', '--ip', '0.0.0.0'])).toMatchObject({
      port: 9000,
      portGiven: true,
      ipGiven: true,
    });
  });
});
