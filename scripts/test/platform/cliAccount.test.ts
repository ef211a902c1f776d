// `npm run platform -- inbound|call|emit` act on the account `npm run dev` registers on (Agency), so
// the README's `inbound <contactId> 'STOP'` finds the contact dev.config.ts created; errors name it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalPlatform } from '../../local/platform.ts';
import { type RunningEmulator, startEmulator } from '../../platform/emulator.ts';
import { accountPath, DEV_ACCOUNT, defaultKey } from '../../platform/state.ts';
import { PROJECT_ROOT } from '../repo.ts';
import { clientOf, useEmulator } from './helpers.ts';
import { startReceiver } from './receiver.ts';

const BIN = join(PROJECT_ROOT, 'scripts', 'bin.ts');
const emulator = useEmulator();
let contactId = '';
let fn: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  fn = await startReceiver(() => ({ status: 200, body: { ok: true } }));
  // What dev does: everything on the Agency account.
  const { client } = clientOf(emulator.current, { plan: 'agency' });
  contactId = (await client.contacts.create({ name: 'Ada', phone: '+15550100', channel: 'whatsapp' })).id;
  await client.customFunctions.create({
    name: 'lookup',
    description: 'Looks something up. Call it when the customer asks.',
    url: `${fn.url}/functions/lookup?key=k`,
    parameters: {},
  });
});
afterAll(() => fn.close());

const run = (args: string[], cwd?: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'platform', ...args], {
      env: { ...process.env, NO_COLOR: '1', PLATFORM_EMULATOR_KEYS: '' },
      ...(cwd ? { cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
const cli = (...args: string[]) => run([...args, '--url', emulator.current.url]);

describe("the platform CLI uses dev's account", () => {
  it('is one constant: dev syncs to the account whose key the CLI sends by default', async () => {
    const local = await startLocalPlatform(0);
    try {
      expect(local.agencyKey).toBe(defaultKey(DEV_ACCOUNT));
      expect(DEV_ACCOUNT).toBe('agency');
    } finally {
      await local.emulator.close();
    }
  });

  it("inbound finds a contact of dev's Agency account without --account", async () => {
    const { code, stdout, stderr } = await cli('inbound', contactId, 'STOP');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('"text": "STOP"');
  });

  it('call finds a function dev registered without --account', async () => {
    const { code, stdout } = await cli('call', 'lookup');
    expect(code).toBe(0);
    expect(stdout).toContain('200');
  });

  it('an unknown contact is refused naming the account that was asked', async () => {
    const { code, stdout, stderr } = await cli('inbound', 'ct_nope', 'hi');
    expect(code).toBe(1);
    expect(stdout + stderr).toContain('Agency account');
  });

  it('an unknown function is refused naming the account, and how functions get there', async () => {
    const { code, stderr } = await cli('call', 'nope');
    expect(code).toBe(2);
    expect(stderr).toContain('Agency account');
    expect(stderr).toContain('Registered: lookup');
  });

  it('--account picks another account, and its errors name that one', async () => {
    const { code, stderr, stdout } = await cli('inbound', contactId, 'STOP', '--account', 'business');
    expect(code).toBe(1);
    expect(stdout + stderr).toContain('Business account');
  });
});

describe('the platform CLI plays any account of a running npm run dev', () => {
  let several: RunningEmulator;
  let project = '';
  beforeAll(async () => {
    several = await startEmulator({
      port: 0,
      accounts: [
        { plan: 'agency', name: 'agency', apiKey: 'agency-key' },
        { plan: 'business', name: 'client-acme', apiKey: 'acme-key', basePath: accountPath('client-acme') },
      ],
    });
    for (const [key, query] of [
      ['agency-key', ''],
      ['acme-key', 'account=client-acme&'],
    ] as const) {
      await fetch(`${several.url}/v1/custom-functions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({
          name: 'lookup',
          description: 'Looks something up. Call it when the customer asks.',
          url: `${fn.url}/functions/lookup?${query}key=k`,
          parameters: {},
        }),
      });
    }
    // A project whose npm run dev runs: its state names the accounts it plays (scripts/project/devState.ts).
    project = mkdtempSync(join(tmpdir(), 'platform-cli-'));
    writeFileSync(join(project, 'wrangler.toml'), 'name = "x"\n');
    mkdirSync(join(project, '.wrangler'));
    writeFileSync(
      join(project, '.wrangler', 'dev.json'),
      JSON.stringify({
        platformUrl: several.url,
        accounts: [
          { name: 'agency', apiKey: 'agency-key', baseUrl: several.url },
          { name: 'client-acme', apiKey: 'acme-key', baseUrl: `${several.url}/accounts/client-acme` },
        ],
      }),
    );
  });
  afterAll(() => several?.close());

  it("--account <name> calls that account's url of the function, through its own address", async () => {
    const { code, stdout } = await run(['call', 'lookup', '--account', 'client-acme'], project);
    expect(code).toBe(0);
    expect(stdout).toContain('/functions/lookup?account=client-acme&key=***');
    expect(fn.received.at(-1)?.url).toBe('/functions/lookup?account=client-acme&key=k');
  });

  it('an account dev does not play is refused, naming those it does', async () => {
    const { code, stderr } = await run(['call', 'lookup', '--account', 'client-nope'], project);
    expect(code).toBe(2);
    expect(stderr).toContain('or an account of the running npm run dev (agency, client-acme), not "client-nope"');
  });
});
