// npm run accounts against real parts: the project's Worker (workerd, in development mode, as the
// local platform's http address needs; its account store and relay) and the local platform over
// HTTP, two of whose accounts play the agency (the first account, key in a variable) and a client
// (key in the store). The key never shows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { accountsKey, manifestKey } from 'agent-functions/worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountsIo, runAccounts } from '../../accounts/main.ts';
import { readKey } from '../../accounts/run.ts';
import { type RunningEmulator, startEmulator } from '../../platform/emulator.ts';
import { checkAccounts } from '../../project/accountCheck.ts';
import { storeClient } from '../../project/accountStore.ts';
import { loadAccountsConfig, storedAccountRelay } from '../../project/accounts.ts';
import { parseManifest, type ServedFunction } from '../../project/manifest.ts';
import { runSecrets } from '../../secrets/main.ts';
import { accountApi } from '../../sync/accountApi.ts';
import { PROJECT_ROOT } from '../repo.ts';
import { capture, sync } from '../sync/helpers.ts';

const SECRET = 'accounts-test-functions-secret-2f8a61c0';
const ACCOUNTS_SECRET = 'accounts-test-store-secret-9b3e70d4';

let origin = '';
let served: ServedFunction[] = [];
let emulator: RunningEmulator;
let stopWorker: () => Promise<void> = async () => {};
let root = '';

const keyOf = (plan: string) => emulator.accounts.find((a) => a.plan === plan)?.apiKey as string;
const recordsOf = (plan: string) => [
  ...(emulator.state.accounts.find((a) => a.plan === plan)?.functions.values() ?? []),
];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimit: false });
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
  const { createTestHarness } = await import('wrangler');
  const server = createTestHarness({
    root: PROJECT_ROOT,
    workers: [
      {
        configPath: './wrangler.toml',
        // Development: the local platform answers on http://127.0.0.1, which the account store takes
        // as an address only under npm run dev (production takes https only, docs/security.md).
        vars: { AGENT_FUNCTIONS_MODE: 'development' },
        secrets: { FUNCTIONS_SECRET: SECRET, ACCOUNTS_SECRET },
      },
    ],
  });
  const { url } = await server.listen();
  stopWorker = () => server.close();
  origin = url.origin;
  const response = await fetch(`${origin}/functions`, {
    headers: { authorization: `Bearer ${await manifestKey(SECRET)}` },
  });
  served = parseManifest(response.status, await response.text());
}, 120_000);
afterAll(async () => {
  await stopWorker();
  await emulator?.close();
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'accounts-cli-'));
  writeFileSync(
    join(root, 'platform.accounts.json'),
    `${JSON.stringify({ accounts: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }] }, null, 2)}\n`,
  );
});

const env = () => ({
  FUNCTIONS_BASE_URL: origin,
  FUNCTIONS_SECRET: SECRET,
  PLATFORM_BASE_URL: emulator.url,
  PLATFORM_API_KEY: keyOf('business'),
});

/** Runs `npm run accounts -- ...argv` in-process, `stdin` as what is piped in. */
const accounts = async (argv: string[], options: { stdin?: string; env?: Record<string, string> } = {}) => {
  const stdout = capture();
  const stderr = capture();
  const io: AccountsIo = {
    env: { ...env(), ...options.env },
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    root,
    createApi: (account, o) => accountApi({ ...account, ...o, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 } }),
    sync: { readManifest: async () => served, lint: false, eventTypes: [], fetchWorker: false, roundDelayMs: 5 },
  };
  const code = await runAccounts(argv, io);
  return { code, out: stdout.text(), err: stderr.text() };
};
/** npm run secrets -- check in the temporary project, its Worker holding the secrets it needs. */
const secretsCheck = async (onWorker = ['FUNCTIONS_SECRET', 'ACCOUNTS_SECRET']) => {
  const stdout = capture();
  const stderr = capture();
  const code = await runSecrets(['check'], {
    env: env(),
    stdout: stdout.stream,
    stderr: stderr.stream,
    root,
    readFunctions: async () => [],
    eventTypes: [],
    wrangler: async () => ({
      code: 0,
      stdout: JSON.stringify(onWorker.map((name) => ({ name }))),
      stderr: '',
    }),
  });
  return { code, out: stdout.text(), err: stderr.text() };
};
const fileOf = () => readFileSync(join(root, 'platform.accounts.json'), 'utf8');
const store = () => storeClient(origin, SECRET);

describe('npm run accounts', () => {
  it('onboards a client in one command: stored key, recorded account, its functions synced to it alone', async () => {
    const clientKey = keyOf('agency');
    const before = recordsOf('business').length;
    const added = await accounts(['add', 'client-acme', '--base-url', emulator.url], { stdin: `${clientKey}\n` });
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const names = served.map((fn) => fn.name).sort();
    expect(added.out).toContain(
      `The agent of "client-acme" can now call ${names.length} function(s): ${names.join(', ')}.`,
    );
    expect(
      recordsOf('agency')
        .map((fn) => fn.name)
        .sort(),
    ).toEqual(names);
    expect(recordsOf('business')).toHaveLength(before);
    // Its urls name it, and the Worker serves them from the stored record (the account is in no Worker variable).
    // Any function the project serves: a call with no arguments is answered (200 or a 422 for the
    // arguments), never refused for the key or the account.
    const one = recordsOf('agency')[0];
    expect(one?.url).toContain('account=client-acme&key=');
    const called = await fetch(one?.url as string, { method: 'POST', body: '{}' });
    expect([200, 422]).toContain(called.status);
    expect(JSON.parse(fileOf()).accounts).toEqual([
      { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
      { name: 'client-acme', baseUrl: emulator.url },
    ]);
    expect(loadAccountsConfig(join(root, 'platform.accounts.json')).accounts).toHaveLength(2);
    expect(await store().get('client-acme')).toMatchObject({
      name: 'client-acme',
      stored: true,
      baseUrl: emulator.url,
    });
    for (const text of [added.out, added.err, fileOf(), JSON.stringify(await store().get('client-acme'))]) {
      expect(text).not.toContain(clientKey);
    }

    const listed = await accounts(['list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out).accounts).toMatchObject([
      { name: 'agency', first: true, key: 'variable PLATFORM_API_KEY', stored: null, setHere: true },
      { name: 'client-acme', first: false, key: 'store', stored: true },
    ]);
    expect(listed.out).not.toContain(clientKey);

    // A second add of the same name is refused: rotate is the way to a new key.
    const again = await accounts(['add', 'client-acme', '--base-url', emulator.url], { stdin: clientKey });
    expect(again.code).toBe(2);
    expect(again.err).toContain('npm run accounts -- rotate client-acme');

    // remove: asks nothing on a non-terminal without --yes, and changes nothing.
    const unconfirmed = await accounts(['remove', 'client-acme']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.err).toContain('add --yes');
    expect(recordsOf('agency')).toHaveLength(names.length);

    // The agency's own registrations, which remove must leave alone.
    await sync(emulator, served, ['--account', 'agency'], {
      env: { FUNCTIONS_BASE_URL: origin, FUNCTIONS_SECRET: SECRET },
      io: { root, lint: false, eventTypes: [] },
    });
    const agencyBefore = recordsOf('business').length;
    expect(agencyBefore).toBeGreaterThan(0);

    // Through the Worker's relay: this run does not hold the client's key.
    const removed = await accounts(['remove', 'client-acme', '--yes']);
    expect(removed.err).toBe('');
    expect(removed.code).toBe(0);
    expect(recordsOf('agency')).toHaveLength(0);
    expect(recordsOf('business')).toHaveLength(agencyBefore);
    expect(await store().get('client-acme')).toBeUndefined();
    expect(JSON.parse(fileOf()).accounts.map((a: { name: string }) => a.name)).toEqual(['agency']);
  }, 60_000);

  it('rotates one stored key, and secrets check reports each account, failing on a revoked one', async () => {
    const added = await accounts(['add', 'client-rot', '--base-url', emulator.url, '--key-env', 'CLIENT_KEY'], {
      env: { CLIENT_KEY: keyOf('agency_unlimited') },
    });
    expect(added.code).toBe(0);
    const config = loadAccountsConfig(join(root, 'platform.accounts.json'));
    const ok = await checkAccounts(config, env());
    expect(ok).toEqual([
      { name: 'agency', key: 'variable PLATFORM_API_KEY', ok: true },
      { name: 'client-rot', key: 'store', ok: true },
    ]);

    // Revoked: the store holds a key the platform no longer takes. The other account still passes.
    await store().put('client-rot', { apiKey: 'revoked-key-of-client-rot' });
    const revoked = await checkAccounts(config, env());
    expect(revoked[0]).toMatchObject({ name: 'agency', ok: true });
    expect(revoked[1]).toMatchObject({ name: 'client-rot', ok: false });
    expect(revoked[1]?.problem).toContain('401');
    const preflight = await secretsCheck();
    expect(preflight.code).toBe(1);
    expect(preflight.out).toContain('Account "agency" (key in variable PLATFORM_API_KEY): accepted by its platform');
    expect(preflight.err).toContain('Account "client-rot" (key in store): the platform refused its key (401)');
    expect(preflight.err).toContain('1 of 2 account(s) failed the check.');

    // A rotation with a key the platform refuses stores nothing.
    const refused = await accounts(['rotate', 'client-rot'], { stdin: 'another-wrong-key' });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('refused this key');
    const before = (await store().get('client-rot'))?.updatedAt ?? 0;
    const rotated = await accounts(['rotate', 'client-rot'], { stdin: keyOf('agency_unlimited') });
    expect(rotated.code).toBe(0);
    expect((await store().get('client-rot'))?.updatedAt).toBeGreaterThanOrEqual(before);
    expect((await checkAccounts(config, env()))[1]).toEqual({ name: 'client-rot', key: 'store', ok: true });
    expect((await secretsCheck()).code).toBe(0);
    // A stored key needs the Worker's ACCOUNTS_SECRET: the preflight says so before any account.
    const noSecret = await secretsCheck(['FUNCTIONS_SECRET']);
    expect(noSecret.code).toBe(1);
    expect(noSecret.err).toContain(
      'Missing ACCOUNTS_SECRET (secret of the account store (stored keys of "client-rot"))',
    );

    // Its secret settings: stored by name, shown by name only, merged, removable.
    const shopKey = 'shop-key-of-client-rot-77';
    const stored = await accounts(['secret', 'client-rot', 'SHOP_TOKEN'], { stdin: shopKey });
    expect(stored.code).toBe(0);
    expect(stored.out).toContain('Stored the secret SHOP_TOKEN of account "client-rot"');
    expect(stored.out + stored.err).not.toContain(shopKey);
    await accounts(['secret', 'client-rot', 'SHOP_URL_TOKEN', '--value-env', 'TOKEN'], { env: { TOKEN: 't' } });
    expect((await store().get('client-rot'))?.secretNames).toEqual(['SHOP_TOKEN', 'SHOP_URL_TOKEN']);
    expect((await accounts(['secret', 'client-rot', 'SHOP_URL_TOKEN', '--remove'])).code).toBe(0);
    expect((await store().get('client-rot'))?.secretNames).toEqual(['SHOP_TOKEN']);
    expect((await accounts(['secret', 'client-rot', 'bad-name'], { stdin: 'x' })).err).toContain(
      'is not a secret name',
    );
    expect((await accounts(['secret', 'agency', 'SHOP_TOKEN'], { stdin: 'x' })).err).toContain(
      'No key is stored for account "agency"',
    );
    // The key is kept by a secret's write: the platform still accepts it.
    expect((await checkAccounts(config, env()))[1]).toEqual({ name: 'client-rot', key: 'store', ok: true });

    // A missing variable is reported for its account alone.
    const unset = await checkAccounts(config, { ...env(), PLATFORM_API_KEY: undefined as unknown as string });
    expect(unset[0]).toMatchObject({ ok: false, problem: 'PLATFORM_API_KEY is not set in this run' });
    expect(unset[1]).toMatchObject({ ok: true });
    await accounts(['remove', 'client-rot', '--yes']);
  }, 60_000);
});

describe('a project without an accounts file', () => {
  it('gets one on the first add: the default account first, then the client', async () => {
    rmSync(join(root, 'platform.accounts.json'));
    const added = await accounts(['add', 'client-first', '--base-url', emulator.url], { stdin: keyOf('agency') });
    expect(added.code).toBe(0);
    expect(JSON.parse(fileOf()).accounts).toEqual([
      { name: 'default', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
      { name: 'client-first', baseUrl: emulator.url },
    ]);
    expect((await accounts(['remove', 'client-first', '--yes'])).code).toBe(0);
  });
});

describe('the key', () => {
  it('is asked for on a terminal and not echoed', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stderr = capture();
    setTimeout(() => stdin.write('pk_typed_on_a_terminal\r'), 20);
    const key = await readKey(
      { env: {}, stdout: stderr.stream, stderr: stderr.stream, stdin },
      undefined,
      'client-tty',
    );
    expect(key).toBe('pk_typed_on_a_terminal');
    expect(stderr.text()).toBe('Paste the API key of account "client-tty" (not shown), then Enter: \n');
  });
});

describe('a stored-key account in sync', () => {
  it("goes through the Worker's relay with the accounts key, the key src/keys.ts derives", async () => {
    const relay = await storedAccountRelay('https://fns.example.dev/', SECRET, 'client-acme');
    expect(relay).toEqual({
      baseUrl: 'https://fns.example.dev/accounts/client-acme/platform',
      apiKey: await accountsKey(SECRET),
      keyPlacement: 'bearer',
    });
  });
});

describe('the account store client', () => {
  it("checks every answer against the framework's contract of the endpoint, never trusting its shape", async () => {
    const odd = storeClient('https://fns.example.dev', SECRET, async () => Response.json({ name: 'x', stored: true }));
    await expect(odd.get('x')).rejects.toThrow(/answered in a shape this CLI does not know/);
    const paths: string[] = [];
    const listing = storeClient('https://fns.example.dev', SECRET, async (input) => {
      const url = new URL(String(input));
      paths.push(`${url.pathname}${url.search}`);
      const after = url.searchParams.get('after');
      return Response.json(
        after ? { accounts: [{ name: 'c', updatedAt: 3 }] } : { accounts: [{ name: 'b', updatedAt: 2 }], next: 'b' },
      );
    });
    expect((await listing.list('client-')).map((entry) => entry.name)).toEqual(['b', 'c']);
    expect(paths).toEqual(['/accounts?limit=1000&prefix=client-', '/accounts?limit=1000&prefix=client-&after=b']);
  });
});

describe('npm run accounts refuses', () => {
  it('a key on the command line, before anything else', async () => {
    for (const flag of [['--key', 'pk_live_x'], ['--key=pk_live_x'], ['--api-key', 'pk_live_x']]) {
      const result = await accounts(['add', 'client-x', ...flag]);
      expect(result.code).toBe(2);
      expect(result.err).toContain('never taken from the command line');
      expect(result.err).not.toContain('pk_live_x');
    }
  });

  it('bad names, unknown commands, an empty key, a missing Worker address, and the first account', async () => {
    expect((await accounts(['add', 'bad name'])).err).toContain('is not an account name');
    expect((await accounts(['frobnicate'])).err).toContain('Unknown command "frobnicate"');
    expect((await accounts(['add', 'client-e', '--base-url', emulator.url], { stdin: '  \n' })).err).toContain(
      'No key on standard input',
    );
    const noWorker = await accounts(['add', 'client-w'], { stdin: 'k', env: { FUNCTIONS_BASE_URL: '' } });
    expect(noWorker.err).toContain('Missing FUNCTIONS_BASE_URL');
    expect((await accounts(['remove', 'agency', '--yes'])).err).toContain('is the first account');
    expect((await accounts(['rotate', 'agency'], { stdin: 'k' })).err).toContain(
      'reads its key from the variable PLATFORM_API_KEY',
    );
    expect((await accounts(['remove', 'client-none', '--yes'])).err).toContain('has no account "client-none"');
    expect((await accounts(['--help'])).out).toContain('add <name>');
    expect(fileOf()).not.toContain('client-');
  });

  it('a wrong FUNCTIONS_SECRET with a message saying which secret differs', async () => {
    const wrong = await accounts(['list'], { env: { FUNCTIONS_SECRET: 'not-the-workers-secret-1234567890' } });
    expect(wrong.code).toBe(0);
    writeFileSync(
      join(root, 'platform.accounts.json'),
      JSON.stringify({ accounts: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY' }, { name: 'client-s' }] }),
    );
    const refused = await accounts(['list'], { env: { FUNCTIONS_SECRET: 'not-the-workers-secret-1234567890' } });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('refused the accounts key (401)');
  });
});
