// dev.config.ts: a project's own stand-ins, loaded by agent-functions dev (present, absent, broken)
// and set up with the local platform, whose settings reach the Worker.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatformClient } from 'agent-functions/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { DevConfigError, defineDevConfig, loadDevConfig, runDevSetup } from '../../local/config.ts';
import { setupAccounts, startLocalPlatform } from '../../local/platform.ts';

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'dev-config-')), 'dev.config.ts');
  writeFileSync(path, text);
  return path;
};

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

describe("a project's dev.config.ts", () => {
  it('is optional: without one, dev starts no stand-in and wires nothing more', async () => {
    const config = await loadDevConfig(join(tmpdir(), 'no-such-project', 'dev.config.ts'));
    expect(config).toEqual({});
    expect((await runDevSetup(config, { platform: {} as never, platformUrl: 'http://x', accounts: [] })).vars).toEqual(
      {},
    );
  });

  it("is loaded from the project's TypeScript, and its setup seeds the local platform and names the Worker's settings", async () => {
    const local = await startLocalPlatform(0);
    closing.push(() => local.emulator.close());
    const path = file(`export default {
  async setup({ platform }: { platform: { contacts: { create(c: object): Promise<{ id: string }> } } }) {
    const inbox = await platform.contacts.create({ name: 'Team inbox', phone: '+14155550100', channel: 'whatsapp' });
    return { vars: { TEAM_CONTACT_ID: inbox.id }, stop: () => { (globalThis as { stopped?: boolean }).stopped = true; } };
  },
};
`);
    const platform = createPlatformClient({ baseUrl: local.emulator.url, apiKey: local.agencyKey });
    const { vars, stop } = await runDevSetup(await loadDevConfig(path), {
      platform,
      platformUrl: local.emulator.url,
      accounts: setupAccounts(local.accounts),
    });
    const [inbox] = await platform.contacts.list();
    expect(inbox).toMatchObject({ name: 'Team inbox' });
    expect(vars).toEqual({ TEAM_CONTACT_ID: inbox?.id });
    await stop();
    expect((globalThis as { stopped?: boolean }).stopped).toBe(true);
  });

  it.each([
    ['a syntax error', 'export default {', /^dev\.config\.ts cannot be loaded: /],
    ['no default export', 'export const setup = () => ({});', /must default-export defineDevConfig/],
    ['a setup that is not a function', 'export default { setup: 3 };', /setup must be a function/],
  ])('refuses %s in one line that names the file', async (_, text, message) => {
    const error = await loadDevConfig(file(text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DevConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses a setup that throws, or gives settings that are not named strings, and stops what it started', async () => {
    const failing = defineDevConfig({
      setup: () => {
        throw new Error('port 4000 is taken');
      },
    });
    await expect(
      runDevSetup(failing, { platform: {} as never, platformUrl: 'http://x', accounts: [] }),
    ).rejects.toThrow('dev.config.ts: setup failed: port 4000 is taken');
    let stopped = false;
    const bad = defineDevConfig({
      setup: () => ({
        vars: { 'team-id': 'x' },
        stop: () => {
          stopped = true;
        },
      }),
    });
    await expect(runDevSetup(bad, { platform: {} as never, platformUrl: 'http://x', accounts: [] })).rejects.toThrow(
      /vars must map UPPER_CASE names to strings, not "team-id"/,
    );
    expect(stopped).toBe(true);
  });

  it('gives setup every account, as the docs use it, without a check for undefined (TS18048)', async () => {
    // Type-checked by npm test (tsc): `accounts` is always there, the first account first.
    const config = defineDevConfig({
      setup({ accounts }) {
        return { vars: { ACCOUNT_NAMES: accounts.map((account) => account.name).join(',') } };
      },
    });
    const platform = {} as never;
    const accounts = [
      { name: 'agency', baseUrl: 'http://x', platform },
      { name: 'client-acme', baseUrl: 'http://x/accounts/client-acme', platform },
    ];
    const { vars } = await runDevSetup(config, { platform, platformUrl: 'http://x', accounts });
    expect(vars).toEqual({ ACCOUNT_NAMES: 'agency,client-acme' });
  });
});
