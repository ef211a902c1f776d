// Each account's urls name it (docs/platform-contract.md §10): the first account of the accounts
// file keeps the section-4 url, every other gets ?account=<name>&key=<key bound to name and account>.
// Two accounts on the local platform over real HTTP, each with its own key.
import { functionKey, functionUrl } from 'agent-functions/worker';
import { describe, expect, it } from 'vitest';
import type { AccountsConfig } from '../../project/accounts.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { accountApi } from '../../sync/accountApi.ts';
import { emulatorPerTest, keyOf, ORIGIN, recordsOf, SECRET, sync, writesIn } from './helpers.ts';

const served: ServedFunction[] = ['alpha_one', 'beta_two'].map((name) => ({
  name,
  description: `Does ${name}. Call it when asked.\n\nParameters:\n- q (required, string): what to look up.`,
  parameters: { q: 'string' },
  path: `/functions/${name}`,
}));

/** The agency (Agency plan) first, then a client (Business plan), each with its own key. */
const config = (names = ['agency', 'client-acme']): AccountsConfig => ({
  accounts: names.map((name) => ({
    name,
    apiKeyEnv: name === 'agency' ? 'AGENCY_API_KEY' : 'ACME_API_KEY',
    baseUrlEnv: 'PLATFORM_BASE_URL',
  })),
});

const start = emulatorPerTest();

const run = async (
  platform: Awaited<ReturnType<typeof start>>,
  args: string[] = [],
  names?: string[],
  functions = served,
) =>
  sync(platform, functions, args, {
    env: { AGENCY_API_KEY: keyOf(platform, 'agency'), ACME_API_KEY: keyOf(platform, 'business') },
    io: { config: config(names) },
  });

const urlsOf = (platform: Awaited<ReturnType<typeof start>>, plan: string) =>
  recordsOf(platform, plan).map((record) => record.url);

describe("each account's urls", () => {
  it('are the section-4 url on the first account and name the account, with a key bound to it, on every other', async () => {
    const platform = await start();
    const first = await run(platform);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(urlsOf(platform, 'agency')).toEqual([
      `${ORIGIN}/functions/alpha_one?key=${await functionKey(SECRET, 'alpha_one')}`,
      `${ORIGIN}/functions/beta_two?key=${await functionKey(SECRET, 'beta_two')}`,
    ]);
    const acme = urlsOf(platform, 'business');
    expect(acme).toEqual([
      await functionUrl(ORIGIN, served[0] as ServedFunction, SECRET, 'client-acme'),
      await functionUrl(ORIGIN, served[1] as ServedFunction, SECRET, 'client-acme'),
    ]);
    expect(acme[0]).toBe(
      `${ORIGIN}/functions/alpha_one?account=client-acme&key=${await functionKey(SECRET, 'alpha_one', 'client-acme')}`,
    );
    expect(await functionKey(SECRET, 'alpha_one', 'client-acme')).not.toBe(await functionKey(SECRET, 'alpha_one'));

    const before = platform.log().length;
    const again = await run(platform);
    expect(again.exitCode).toBe(0);
    expect(writesIn(platform, before)).toEqual([]);
  });

  it("are re-registered once on an upgraded project: each non-first account's urls are updated in place, then nothing", async () => {
    const platform = await start();
    // Before accounts were told apart every account had the section-4 url: as each account alone did.
    await run(platform, [], ['agency']);
    await run(platform, [], ['client-acme']);
    const ids = recordsOf(platform, 'business').map((record) => record.id);
    expect(urlsOf(platform, 'business')[0]).toBe(
      `${ORIGIN}/functions/alpha_one?key=${await functionKey(SECRET, 'alpha_one')}`,
    );

    const before = platform.log().length;
    const upgrade = await run(platform);
    expect(upgrade.exitCode, upgrade.stderr).toBe(0);
    expect(upgrade.stdout).toContain(
      `url: ${ORIGIN}/functions/alpha_one?key=*** → ${ORIGIN}/functions/alpha_one?account=client-acme&key=***`,
    );
    expect(upgrade.stdout).toContain('agency: in sync, nothing to do');
    expect(upgrade.stdout).toContain('client-acme: synced: 0 created, 2 updated, 0 deleted');
    expect(writesIn(platform, before).map((w) => w.method)).toEqual(['PATCH', 'PATCH']);
    expect(recordsOf(platform, 'business').map((record) => record.id)).toEqual(ids);
    expect(upgrade.stdout).not.toContain(await functionKey(SECRET, 'alpha_one', 'client-acme'));

    const after = platform.log().length;
    const next = await run(platform);
    expect(next.exitCode).toBe(0);
    expect(writesIn(platform, after)).toEqual([]);
  });

  it("never touch another account's url: a name it holds is a conflict, and --prune leaves it", async () => {
    const platform = await start();
    // The client's platform account also holds a url of the agency's (the same platform account
    // was once synced under the agency's name).
    const { api } = accountApi({ baseUrl: platform.url, apiKey: keyOf(platform, 'business') });
    const agencyUrl = (name: string) => `${ORIGIN}/functions/${name}?account=agency&key=k`;
    await api.create({ name: 'alpha_one', description: 'Theirs.', parameters: {}, url: agencyUrl('alpha_one') });
    await api.create({ name: 'gone_fn', description: 'Theirs.', parameters: {}, url: agencyUrl('gone_fn') });
    // And one of its own that left functions/, for --prune to delete.
    await api.create({
      name: 'old_fn',
      description: 'Ours.',
      parameters: {},
      url: `${ORIGIN}/functions/old_fn?account=client-acme&key=k`,
    });

    const pruned = await run(platform, ['--prune']);
    expect(pruned.exitCode).toBe(1);
    expect(pruned.stdout).toContain(
      `! conflict   alpha_one registered for account "agency" of this project (${ORIGIN}/functions/alpha_one?account=agency&key=***); left alone.`,
    );
    const records = recordsOf(platform, 'business');
    expect(records.map((record) => [record.name, record.url])).toEqual([
      ['alpha_one', agencyUrl('alpha_one')],
      ['beta_two', await functionUrl(ORIGIN, served[1] as ServedFunction, SECRET, 'client-acme')],
      ['gone_fn', agencyUrl('gone_fn')],
    ]);
    // The agency's own account, first in the file, is untouched by the client's records.
    expect(urlsOf(platform, 'agency')).toHaveLength(2);
  });

  it('belong to the account wherever it stands in the file: a reorder moves urls to the new form, never a conflict', async () => {
    const platform = await start();
    await run(platform);
    const before = platform.log().length;
    const swapped = await run(platform, [], ['client-acme', 'agency']);
    expect(swapped.exitCode, swapped.stdout).toBe(0);
    expect(writesIn(platform, before).map((w) => w.method)).toEqual(['PATCH', 'PATCH', 'PATCH', 'PATCH']);
    expect(urlsOf(platform, 'business')[0]).toBe(
      `${ORIGIN}/functions/alpha_one?key=${await functionKey(SECRET, 'alpha_one')}`,
    );
    expect(urlsOf(platform, 'agency')[0]).toContain('?account=agency&key=');
  });
});

describe("each account's events webhook", () => {
  it("is its own: another account's webhook on the same platform account is never updated nor pruned", async () => {
    const platform = await start();
    const { webhooks } = accountApi({ baseUrl: platform.url, apiKey: keyOf(platform, 'business') });
    await webhooks?.create({ url: `${ORIGIN}/events/agency`, events: ['message.received'] });
    const types = ['appointment.booked'];
    const env = { AGENCY_API_KEY: keyOf(platform, 'agency'), ACME_API_KEY: keyOf(platform, 'business') };
    const hooks = () =>
      [...(platform.state.accounts.find((a) => a.plan === 'business')?.webhooks.values() ?? [])]
        .map((w) => [w.url, w.events])
        .sort();

    const first = await sync(platform, served, [], { env, io: { config: config(), eventTypes: types } });
    expect(first.exitCode, first.stdout).toBe(0);
    expect(hooks()).toEqual([
      [`${ORIGIN}/events/agency`, ['message.received']],
      [`${ORIGIN}/events/client-acme`, types],
    ]);
    const pruned = await sync(platform, served, ['--prune'], { env, io: { config: config(), eventTypes: [] } });
    expect(pruned.exitCode, pruned.stdout).toBe(0);
    expect(hooks()).toEqual([[`${ORIGIN}/events/agency`, ['message.received']]]);
  });
});

describe('--account', () => {
  it('syncs only the named account, with the url of its place in the whole file', async () => {
    const platform = await start();
    const only = await run(platform, ['--account', 'client-acme', '--json']);
    expect(only.exitCode, only.stderr).toBe(0);
    const document = JSON.parse(only.stdout);
    expect(document.accounts.map((a: { account: string; status: string }) => [a.account, a.status])).toEqual([
      ['client-acme', 'synced'],
    ]);
    expect(recordsOf(platform, 'agency')).toEqual([]);
    expect(urlsOf(platform, 'business')[0]).toContain('/functions/alpha_one?account=client-acme&key=');
  });

  it('refuses an unknown name with a clear error listing the names, and writes nothing', async () => {
    const platform = await start();
    const unknown = await run(platform, ['--account', 'client-acmee']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain(
      'Unknown account "client-acmee" in --account: the accounts file lists agency, client-acme.',
    );
    expect(writesIn(platform)).toEqual([]);
  });

  it('refuses one platform account under two names, which would take each other’s urls over', async () => {
    const platform = await start();
    const twice = await sync(platform, served, [], {
      env: { AGENCY_API_KEY: keyOf(platform, 'agency'), ACME_API_KEY: keyOf(platform, 'agency') },
      io: { config: config() },
    });
    expect(twice.exitCode).toBe(1);
    expect(twice.stdout).toContain(
      'client-acme: failed: Account "client-acme" has the same platform address and API key as "agency"',
    );
    expect(urlsOf(platform, 'agency')[0]).toBe(
      `${ORIGIN}/functions/alpha_one?key=${await functionKey(SECRET, 'alpha_one')}`,
    );
  });
});
