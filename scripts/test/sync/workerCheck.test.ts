// After applying (and with --status), sync reads the deployed Worker's manifest at
// FUNCTIONS_BASE_URL once, with the key derived from the FUNCTIONS_SECRET it registered urls with:
// when the Worker refuses it, every registered url is refused too, and sync says so plainly.
// Real HTTP: the project's Worker (workerd, production mode) and the local platform.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { manifestKey } from 'agent-functions/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest, type ServedFunction } from '../../project/manifest.ts';
import { checkWorker } from '../../sync/workerCheck.ts';
import { PROJECT_ROOT } from '../repo.ts';
import { emulatorPerTest, sync } from './helpers.ts';

const WORKER_SECRET = 'the-workers-own-secret-4c1f9a7e2b8d';
const OTHER_SECRET = 'a-different-secret-in-dot-env-93be71';

let origin = '';
let served: ServedFunction[] = [];
let stop: () => Promise<void> = async () => {};

beforeAll(async () => {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
  const { createTestHarness } = await import('wrangler');
  const server = createTestHarness({
    root: PROJECT_ROOT,
    workers: [
      {
        configPath: './wrangler.toml',
        vars: { AGENT_FUNCTIONS_MODE: 'production' },
        secrets: { FUNCTIONS_SECRET: WORKER_SECRET },
      },
    ],
  });
  const { url } = await server.listen();
  stop = () => server.close();
  origin = url.origin;
  const response = await fetch(`${origin}/functions`, {
    headers: { authorization: `Bearer ${await manifestKey(WORKER_SECRET)}` },
  });
  served = parseManifest(response.status, await response.text());
}, 120_000);
afterAll(() => stop());

const start = emulatorPerTest();
/**
 * The Worker's real check (global fetch); a refusal is still read twice, but after a short pause
 * (sync's own 2 s waits for a secret put elsewhere to arrive; this Worker's secret never changes).
 */
let reads = 0;
const check = {
  fetchWorker: ((input, init) => {
    reads++;
    return fetch(input, init);
  }) as typeof fetch,
  confirmAfterMs: 50,
};
/** Sync with the Worker's real check, against the Worker above unless told otherwise. */
const run = async (secret: string, args: string[] = [], base = origin) =>
  sync(await start(), served, args, {
    env: { FUNCTIONS_BASE_URL: base, FUNCTIONS_SECRET: secret },
    io: check,
  });

describe('sync checks the deployed Worker accepts the keys it registered', () => {
  it('says plainly that every url is refused when .env holds another FUNCTIONS_SECRET, and fails', async () => {
    const readsBefore = reads;
    const result = await run(OTHER_SECRET);
    // Refused twice: the first read, and the one that confirms it.
    expect(reads - readsBefore).toBe(2);
    expect(result.stderr).toContain(`The Worker at ${origin} refused the manifest key of this FUNCTIONS_SECRET (401)`);
    expect(result.stderr).toContain('every url just registered answers 401');
    expect(result.exitCode).toBe(1);
  });

  it('--status says the same instead of "matches"', async () => {
    const platform = await start();
    await sync(platform, served, [], { env: { FUNCTIONS_BASE_URL: origin, FUNCTIONS_SECRET: OTHER_SECRET } });
    const status = await sync(platform, served, ['--status'], {
      env: { FUNCTIONS_BASE_URL: origin, FUNCTIONS_SECRET: OTHER_SECRET },
      io: check,
    });
    expect(status.stdout).toContain('functions match');
    expect(status.stderr).toContain('refused the manifest key');
    expect(status.exitCode).toBe(1);
  });

  it('confirms in one line when the Worker accepts the keys', async () => {
    const result = await run(WORKER_SECRET);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`The Worker at ${origin} accepts the keys: its manifest answered 200`);
  });

  it('warns, without failing, when the Worker cannot be reached (not deployed yet)', async () => {
    const closed = await new Promise<Server>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await run(WORKER_SECRET, [], `http://127.0.0.1:${port}`);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Could not reach the Worker at http://127.0.0.1:${port} to check its keys`);
  });

  it('confirms a refusal with a second read, so a secret put a moment before is not reported as refused', async () => {
    const answers = [401, 200];
    const check = await checkWorker(origin, WORKER_SECRET, served, {
      confirmAfterMs: 0,
      fetchWorker: async () => {
        const status = answers.shift() ?? 200;
        return new Response(JSON.stringify(status === 200 ? { functions: served } : { error: {} }), { status });
      },
    });
    expect(check.verdict).toBe('accepted');
    expect(answers).toEqual([]);
  });
});
