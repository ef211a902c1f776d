// The walk-through of docs/local-development.md "Walk-through: an agency and three clients on your
// laptop", as a new user at an agency runs it: the accounts named as the docs name them (`agency`
// first, then `client-acme`, `client-bolt`, `client-cora`), `npm run dev` on the examples, each
// client called as its agent, a client onboarded with `npm run accounts -- add` while dev runs, the
// accounts file edited (a typo first) while dev runs, the console's labels, and the examples'
// tests with a first account not named `default`. Where the docs call an example that reads the
// timezone setting, it calls a function of its own that reads the same setting, so
// removing the examples (README) needs no edit here.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevRun, newcomerFiles, startDev } from '../scripts/test/dev/harness.ts';
import { copyProject } from '../scripts/test/project.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { agentFunctions, npmRunEnv } from './cli.ts';

/** The walk-through's section of the docs, and its first JSON block: the accounts file of step 1. */
const WALK_THROUGH = (() => {
  const docs = readFileSync(join(PROJECT_ROOT, 'docs', 'local-development.md'), 'utf8');
  const start = docs.indexOf('#### Walk-through: an agency and three clients on your laptop');
  return docs.slice(start, docs.indexOf('#### ', start + 10));
})();
const STEP_ONE = JSON.parse(/```json\n([\s\S]*?)```/.exec(WALK_THROUGH)?.[1] ?? 'null') as {
  accounts: Array<Record<string, unknown>>;
};

let dev: DevRun;
let consoleUrl = '';
const accountsFile = () => join(dev.dir, 'platform.accounts.json');
const saveAccounts = (content: unknown) => writeFileSync(accountsFile(), `${JSON.stringify(content, null, 2)}\n`);
const readAccounts = () => JSON.parse(readFileSync(accountsFile(), 'utf8')) as typeof STEP_ONE;

/** `agent-functions <args>` in the project, as `npm run` runs it; its exit code and output. */
const run = (args: string[], timeoutMs = 150_000): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const [file, argv] = agentFunctions(...args);
    const child = spawn(file, argv, { cwd: dev.dir, env: npmRunEnv(dev.dir, { NO_COLOR: '1' }), stdio: 'pipe' });
    child.stdin.end();
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });

/** A function of the walk-through's own: the account a call acted in, and its timezone setting (lib/settings.ts). */
const WHOSE_ACCOUNT = `import { defineFunction } from 'agent-functions';
import { z } from 'zod';

export default defineFunction({
  description:
    'Says which business the agent speaks for, and its timezone. Call it when the customer asks who they are talking to.',
  parameters: z.object({}),
  // A read: asked again in the same conversation, it runs again (never an answer kept from before).
  annotations: { readOnlyHint: true },
  handler: (_args, { account }) => ({ account: account.name, timezone: account.settings.timezone ?? 'Europe/London' }),
});
`;

/** What `npm run platform -- call whose_account '{}' --account <name>` answered: its timezone. */
const timezoneOf = async (account: string): Promise<string> => {
  const { code, out, err } = await run(['platform', 'call', 'whose_account', '{}', '--account', account]);
  expect(code, `${out}\n${err}`).toBe(0);
  expect(out).toMatch(/^200 in \d+ ms$/m);
  return (/"timezone": "([^"]+)"/.exec(out)?.[1] ?? '') as string;
};

/** A row of `npm run stats -- --json` (docs/platform-contract.md §11), the fields read here. */
type StatsRow = { account: string; function: string; calls: number; ok: number };

/** dev's output from now on. */
const outputFrom = () => {
  const mark = dev.output().length;
  return () => dev.output().slice(mark);
};

beforeAll(async () => {
  expect(STEP_ONE.accounts.map((account) => account.name)).toEqual(['agency', 'client-acme']);
  const dir = copyProject({
    ...newcomerFiles(),
    'platform.accounts.json': JSON.stringify(STEP_ONE, null, 2),
    'functions/whose_account.ts': WHOSE_ACCOUNT,
  });
  dev = await startDev(dir);
  consoleUrl = (await dev.waitFor(/^console: (http:\/\/127\.0\.0\.1:\d+\/)$/m))[1] as string;
  await dev.waitFor(/edit functions\/ or events\/ and it re-syncs/);
}, 240_000);

afterAll(async () => {
  await dev?.stop();
  if (dev) rmSync(dev.dir, { recursive: true, force: true });
});

describe('an agency serving three clients under npm run dev, as the docs walk it through', () => {
  it('step 2: dev names each account with its local key', () => {
    expect(dev.output()).toContain(
      '(Agency account key: local-agency-key); also account "client-acme" (key local-client-acme-account-key, at ',
    );
  });

  it("step 3: each client's agent is answered with that client's settings", async () => {
    expect(await timezoneOf('client-acme')).toBe('Europe/Paris');
    expect(await timezoneOf('agency')).toBe('Europe/London');
  });

  it('a bad save is one line naming the account and the key, and the last good accounts keep serving, without a stack or a stall', async () => {
    const since = outputFrom();
    const good = readAccounts();
    saveAccounts({ ...good, accounts: [...good.accounts, { name: 'client-bolt', apiKeyEnvv: 'BOLT_API_KEY' }] });
    await dev.waitFor(
      /^\[dev\] platform\.accounts\.json: account "client-bolt": unknown key "apiKeyEnvv" \(did you mean "apiKeyEnv"\?\) The last good accounts keep serving until it is fixed\.$/m,
      30_000,
    );
    // A save in functions/ rebuilds the Worker with the bad file still there: it keeps the last good accounts.
    const file = join(dev.dir, 'functions', 'whose_account.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n// saved again\n`);
    await dev.waitFor(/The file functions\/whose_account\.ts changed/, 30_000);
    const started = Date.now();
    const answer = await fetch(`${dev.origin}/functions/whose_account?account=client-acme`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(15_000),
    });
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(since()).not.toMatch(/^\s+at /m);
    expect(since()).not.toContain('Unrecognized key');
    saveAccounts(good);
  }, 120_000);

  it('step 4: npm run accounts -- add client-bolt onboards it on the local platform, with no key or setup', async () => {
    const { code, out, err } = await run(['accounts', 'add', 'client-bolt']);
    expect(code, `${out}\n${err}`).toBe(0);
    expect(out).toMatch(/^Local: added account "client-bolt" to platform\.accounts\.json/m);
    expect(out).toMatch(/^Local account "client-bolt": key local-client-bolt-account-key, at http/m);
    expect(out).toMatch(/^The agent of "client-bolt" can now call \d+ function\(s\): .*whose_account/m);
    expect(out).not.toContain('Environment production');
    expect(readAccounts().accounts.at(-1)).toEqual({ name: 'client-bolt' });
    // Without restarting dev, its agent is answered (its key is the local one dev wired).
    expect(await timezoneOf('client-bolt')).toBe('Europe/London');
  }, 200_000);

  it('step 5: a settings typo is refused naming the account; a good edit is taken without restarting dev', async () => {
    const since = outputFrom();
    const good = readAccounts();
    const withBolt = (settings: Record<string, unknown>) =>
      good.accounts.map((account) => (account.name === 'client-bolt' ? { ...account, settings } : account));
    saveAccounts({ ...good, accounts: withBolt({ openingHour: { '1': ['08:00', '12:00'] } }) });
    await dev.waitFor(
      /^\[dev\] platform\.accounts\.json: account "client-bolt": settings: unknown key "openingHour" \(did you mean "openingHours"\?\)/m,
      30_000,
    );
    saveAccounts({
      ...good,
      accounts: [...withBolt({ timezone: 'Asia/Tokyo' }), { name: 'client-cora', apiKeyEnv: 'CORA_API_KEY' }],
    });
    await dev.waitFor(/^\[dev\] serving 4 account\(s\): agency, client-acme, client-bolt, client-cora\.$/m, 150_000);
    expect(await timezoneOf('client-bolt'), since().slice(-8000)).toBe('Asia/Tokyo');
    expect(await timezoneOf('client-cora')).toBe('Europe/London');
  }, 240_000);

  it('step 6: the console names the account each call acted in, or that it was refused before one was known', async () => {
    const direct = (account: string) =>
      fetch(`${dev.origin}/functions/whose_account?account=${account}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    const acted = await direct('client-bolt');
    expect(acted.status).toBe(200);
    const refused = await direct('client-nobody');
    expect(refused.status).toBe(401);
    const ids = [acted.headers.get('x-request-id'), refused.headers.get('x-request-id')];
    const accountOf = async (requestId: string | null) => {
      const { items } = (await (await fetch(new URL('/api/activity', consoleUrl))).json()) as {
        items: Array<{ kind: string; requestId?: string; account?: string | null }>;
      };
      return items.find((item) => item.kind === 'call' && item.requestId === requestId)?.account;
    };
    await expect.poll(() => accountOf(ids[0] ?? null), { timeout: 10_000 }).toBe('client-bolt');
    await expect.poll(() => accountOf(ids[1] ?? null), { timeout: 10_000 }).toBeNull();
    // npm run stats finds the running dev after the accounts changed (steps 4 and 5) and counts
    // client-bolt's calls apart from the others'.
    // Its three calls of whose_account: steps 4 and 5 as its agent, and the direct call above.
    const boltStats = async () => {
      const { code, out, err } = await run(['stats', '--account', 'client-bolt', '--json']);
      expect(code, `${out}\n${err}`).toBe(0);
      return (JSON.parse(out) as { rows: StatsRow[] }).rows;
    };
    await expect
      .poll(async () => (await boltStats()).find((row) => row.function === 'whose_account'), { timeout: 20_000 })
      .toMatchObject({ account: 'client-bolt', calls: 3, ok: 3 });
    expect((await boltStats()).every((row) => row.account === 'client-bolt')).toBe(true);
  }, 60_000);

  it("step 7: the examples' tests pass with a first account named agency", async () => {
    await dev.stop();
    const tests = spawnSync(
      process.execPath,
      [join(dev.dir, 'node_modules', '.bin', 'vitest'), 'run', '--project', 'project'],
      {
        cwd: dev.dir,
        env: npmRunEnv(dev.dir, { NO_COLOR: '1' }),
        encoding: 'utf8',
        timeout: 400_000,
      },
    );
    expect(tests.status, `${tests.stdout}\n${tests.stderr}`.slice(-4000)).toBe(0);
    expect(readAccounts().accounts[0]?.name).toBe('agency');
  }, 420_000);
});
