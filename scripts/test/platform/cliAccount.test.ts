// `npm run platform -- inbound|call|emit` act on the account `npm run dev` registers on (Agency), so
// the README's `inbound <contactId> 'STOP'` finds the contact dev.config.ts created; errors name it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalPlatform } from '../../dev/platform.ts';
import { DEV_ACCOUNT, defaultKey } from '../../platform/state.ts';
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

const cli = (...args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'platform', ...args, '--url', emulator.current.url], {
      env: { ...process.env, NO_COLOR: '1', PLATFORM_EMULATOR_KEYS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

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
