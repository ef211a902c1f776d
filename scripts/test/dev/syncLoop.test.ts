// dev's sync loop against the real local platform, in process: what it registers on each account at
// the first sync and after each change, what it keeps, what it leaves alone, and what it says.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createPlatformClient } from 'agent-functions/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncLoop } from '../../dev/syncLoop.ts';
import type { ManifestRead } from '../../dev/workerManifest.ts';
import type { DevAccount } from '../../local/accounts.ts';
import { type LocalPlatform, startLocalPlatform } from '../../local/platform.ts';
import { PLACEHOLDER_DESCRIPTION } from '../../project/templates.ts';
import { ACCOUNTS, lines, manifestOf, ORIGIN, SECRET, smallProject } from './served.ts';

const running: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const thing of running.splice(0)) await thing.close();
});

/**
 * A loop over a small project and a fresh local platform, whose Worker serves `worker.read` (change
 * it at will) once it has answered `starting` looks with nothing, as a Worker still starting does.
 */
const start = async (first: ManifestRead, starting = 0) => {
  const root = smallProject();
  running.push({ close: () => rmSync(root, { recursive: true, force: true }) });
  const local: LocalPlatform = await startLocalPlatform(0, undefined, ACCOUNTS);
  running.push(local.emulator);
  const worker = { read: first, starting, looks: 0 };
  const out = lines();
  const loop = createSyncLoop({
    accounts: local.accounts,
    origin: ORIGIN,
    secret: SECRET,
    root,
    manifest: async () => {
      worker.looks++;
      return worker.starting-- > 0 ? undefined : worker.read;
    },
    ...out,
    debounceMs: 5,
    reloadWaitMs: 1,
    reloadLooks: 3,
    startPollMs: 1,
  });
  running.push(loop);
  const held = async (account: DevAccount) =>
    (await createPlatformClient({ baseUrl: account.baseUrl, apiKey: account.apiKey }).customFunctions.list())
      .map((fn) => fn.name)
      .sort();
  /** The functions each account holds, by account name. */
  const holdings = async () =>
    Object.fromEntries(await Promise.all(local.accounts.map(async (a) => [a.name, await held(a)] as const)));
  /** Where the local platform's log of requests stands now. */
  const mark = () => local.emulator.log().length;
  /** The requests that changed something on the local platform since `since` (a mark of its log). */
  const writes = (since = 0) =>
    local.emulator
      .log()
      .slice(since)
      .filter((entry) => entry.method !== 'GET');
  return { root, local, worker, loop, said: out.said, holdings, mark, writes };
};

const ALL = ['cancel_plan', 'quote_plan', 'tell_time'];

describe("npm run dev's sync loop", () => {
  it("waits for the Worker's first answer, then registers what it serves on every account (each its own selection)", async () => {
    const read = await manifestOf();
    const { worker, loop, said, holdings } = await start(read, 2);
    expect(await loop.waitForWorker()).toBe(read);
    expect(worker.looks).toBe(3);
    await loop.syncCurrent();
    expect(await holdings()).toEqual({ agency: ALL, 'client-acme': ALL, 'client-bolt': ['tell_time'] });
    expect(said).toEqual([['say', 'syncing 3 function(s) to 3 local accounts…']]);
  });

  it('prunes a function whose file was removed, from every account', async () => {
    const { root, worker, loop, holdings } = await start(await manifestOf());
    await loop.waitForWorker();
    await loop.syncCurrent();
    rmSync(join(root, 'functions', 'cancel_plan.ts'));
    worker.read = await manifestOf(['quote_plan', 'tell_time']);
    await loop.reload();
    expect(await holdings()).toEqual({
      agency: ['quote_plan', 'tell_time'],
      'client-acme': ['quote_plan', 'tell_time'],
      'client-bolt': ['tell_time'],
    });
  });

  it('keeps the last good registration of a function the Worker leaves out while its file is still there', async () => {
    const { worker, loop, holdings, mark, writes } = await start(await manifestOf());
    await loop.waitForWorker();
    await loop.syncCurrent();
    const since = mark();
    // cancel_plan does not build, say: the Worker leaves it out, its file stays.
    worker.read = await manifestOf(['quote_plan', 'tell_time']);
    await loop.reload();
    expect(await holdings()).toEqual({ agency: ALL, 'client-acme': ALL, 'client-bolt': ['tell_time'] });
    expect(writes(since)).toEqual([]);
  });

  it('writes nothing after a change that leaves the manifest as it was', async () => {
    const { worker, loop, said, mark, writes } = await start(await manifestOf());
    await loop.waitForWorker();
    await loop.syncCurrent();
    const since = mark();
    worker.looks = 0;
    await loop.reload();
    expect(worker.looks).toBe(3);
    expect(writes(since)).toEqual([]);
    expect(said.filter(([, text]) => text.startsWith('syncing'))).toHaveLength(1);
  });

  it('notices a function deleted on the platform behind its back, says so, and syncs it again', async () => {
    const { local, loop, said, holdings } = await start(await manifestOf());
    await loop.waitForWorker();
    await loop.syncCurrent();
    const acme = local.accounts[1] as DevAccount;
    const client = createPlatformClient({ baseUrl: acme.baseUrl, apiKey: acme.apiKey });
    const gone = (await client.customFunctions.list()).find((fn) => fn.name === 'tell_time');
    await client.customFunctions.delete(gone?.id ?? '');
    await loop.checkDrift();
    expect(said.slice(1)).toEqual([
      ['warn', '[client-acme] the local platform lacks tell_time, which the Worker serves; syncing again.'],
      ['say', 'synced on client-acme: created tell_time'],
    ]);
    expect(await holdings()).toEqual({ agency: ALL, 'client-acme': ALL, 'client-bolt': ['tell_time'] });
  });

  it("says a broken manifest's problem once, however often it looks, and syncs nothing", async () => {
    const error = 'The Worker answered 500 to GET /functions: functions/quote_plan.ts: "plan" is a union.';
    const { loop, said, writes } = await start({ error });
    await loop.waitForWorker();
    await loop.syncCurrent();
    await loop.reload();
    await loop.reload();
    expect(said).toEqual([
      ['fail', `${error}\nThe other functions are still served, but nothing is synced until this is fixed.`],
    ]);
    expect(writes()).toEqual([]);
  });

  it('reloads once for a burst of changes, and syncs what the Worker serves after them', async () => {
    const { root, worker, loop, said, holdings } = await start(await manifestOf());
    await loop.waitForWorker();
    await loop.syncCurrent();
    rmSync(join(root, 'functions', 'quote_plan.ts'));
    worker.read = await manifestOf(['cancel_plan', 'tell_time']);
    await Promise.all([loop.onChange(), loop.onChange(), loop.onChange()]);
    expect(said).toEqual([
      ['say', 'syncing 3 function(s) to 3 local accounts…'],
      ['say', 'synced on agency, client-acme: deleted quote_plan'],
    ]);
    expect((await holdings()).agency).toEqual(['cancel_plan', 'tell_time']);
  });

  it('after a save, says what changed in a line, not the whole plan', async () => {
    const read = await manifestOf();
    const { worker, loop, said } = await start(read);
    await loop.waitForWorker();
    await loop.syncCurrent();
    const printed: string[] = [];
    const served = 'served' in read ? read.served : [];
    worker.read = {
      ...read,
      served: served.map((fn) => (fn.name === 'tell_time' ? { ...fn, description: `${fn.description} Now.` } : fn)),
    };
    await loop.reload();
    printed.push(...said.slice(1).map(([, text]) => text));
    expect(printed).toEqual(['synced on every account: updated tell_time (description)']);
  });

  it('says a placeholder description once, not also as a function the platform lacks', async () => {
    const read = await manifestOf();
    const served = 'served' in read ? read.served : [];
    const draft = {
      ...read,
      served: served.map((fn) => (fn.name === 'tell_time' ? { ...fn, description: PLACEHOLDER_DESCRIPTION } : fn)),
    };
    const { loop, said } = await start(draft);
    await loop.waitForWorker();
    await loop.syncCurrent();
    await loop.reload();
    await loop.checkDrift();
    const texts = said.map(([, text]) => text);
    expect(texts.filter((text) => text.includes('lacks tell_time'))).toEqual([]);
    expect(texts.filter((text) => text.includes("scaffold's placeholder"))).toHaveLength(1);
  });
});
