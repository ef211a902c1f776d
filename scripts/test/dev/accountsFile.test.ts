// platform.accounts.json saved while npm run dev runs (scripts/dev/accountsFile.ts): a bad file is
// one line naming the account and the key, and changes nothing; a good one adds its new accounts to
// the local platform, restarts the Worker with their settings and syncs, without a restart of dev.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkedAccounts, createAccountsReload } from '../../dev/accountsFile.ts';
import type { DevServices } from '../../dev/services.ts';
import { devAccountOptions, devAccountsOf } from '../../local/accounts.ts';
import { devVars } from '../../local/vars.ts';
import { type RunningEmulator, startEmulator } from '../../platform/emulator.ts';
import { type AccountsConfig, loadAccountsConfig, localKeyEnv } from '../../project/accounts.ts';
import { readDevState, writeDevState } from '../../project/devState.ts';
import { generate } from '../../project/generated.ts';
import { copyProject } from '../project.ts';

const agency = { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' };
const acme = { name: 'client-acme', apiKeyEnv: 'ACME_PLATFORM_API_KEY', baseUrlEnv: 'ACME_PLATFORM_BASE_URL' };
const bolt = { name: 'client-bolt', apiKeyEnv: 'BOLT_PLATFORM_API_KEY' };

const root = copyProject();
const save = (content: unknown) => writeFileSync(join(root, 'platform.accounts.json'), JSON.stringify(content));
save({ accounts: [agency, acme] });

let emulator: RunningEmulator | undefined;
afterAll(async () => emulator?.close());

describe('the accounts file saved while dev runs', () => {
  it('is checked as a build checks it, each problem naming the file (not its path), the account and the key', async () => {
    save({ accounts: [agency, acme, { ...bolt, apiKeyEnvv: 'X' }] });
    await expect(checkedAccounts(root)).rejects.toThrow(
      /^platform\.accounts\.json: account "client-bolt": unknown key "apiKeyEnvv" \(did you mean "apiKeyEnv"\?\)$/,
    );
    save({ accounts: [agency, { ...acme, settings: { openingHour: {} } }] });
    await expect(checkedAccounts(root)).rejects.toThrow(/account "client-acme": settings: unknown key "openingHour"/);
    save({ accounts: [agency, acme] });
    expect((await checkedAccounts(root)).accounts.map((account) => account.name)).toEqual(['agency', 'client-acme']);
  });

  it('leaves the last good accounts serving on a bad save, and takes a good one: new account, restart, sync', async () => {
    const config = loadAccountsConfig(join(root, 'platform.accounts.json'));
    emulator = await startEmulator({ port: 0, accounts: devAccountOptions(config) });
    const running = emulator;
    const accounts = devAccountsOf(config, running);
    const said: string[] = [];
    const steps: string[] = [];
    const services = {
      platform: { emulator: running, agencyKey: 'local-agency-key', accounts },
      publish: () => void steps.push('publish'),
      reload: (next: AccountsConfig) => {
        steps.push(`reload ${next.accounts.map((account) => account.name).join(',')}`);
        return {
          settings: { vars: { N: String(next.accounts.length) }, secret: undefined, notes: [], problems: [] },
          added: ['client-bolt'],
          removed: [],
        };
      },
    } as unknown as DevServices;
    const reload = createAccountsReload({
      root,
      services,
      restartWorker: async (vars) => void steps.push(`restart ${vars.N}`),
      workerAnswers: async () => true,
      sync: async () => void steps.push('sync'),
      say: (line) => said.push(line),
      fail: (line) => said.push(`FAIL ${line}`),
      debounceMs: 1,
    });
    save({ accounts: [agency, acme, { ...bolt, apiKeyEnvv: 'X' }] });
    await reload();
    expect(said).toEqual([
      'FAIL platform.accounts.json: account "client-bolt": unknown key "apiKeyEnvv" (did you mean "apiKeyEnv"?) The last good accounts keep serving until it is fixed.',
    ]);
    expect(steps).toEqual([]);
    save({ accounts: [agency, acme, bolt] });
    await reload();
    expect(steps).toEqual(['reload agency,client-acme,client-bolt', 'restart 3', 'sync', 'publish']);
    expect(said.slice(1)).toEqual([
      'platform.accounts.json changed (added "client-bolt"): restarting the Worker with 3 account(s)…',
      'serving 3 account(s): agency, client-acme, client-bolt.',
    ]);
    // The same file again: nothing to do.
    await reload();
    expect(steps).toHaveLength(4);
  });

  it("gives the local platform a new account with its own key while it runs, and dev's state names it", async () => {
    const running = emulator as RunningEmulator;
    const added = running.addAccount({
      plan: 'business',
      name: 'client-cora',
      apiKey: 'local-client-cora-account-key',
    });
    expect(running.accounts.map((account) => account.name)).toContain('client-cora');
    const answer = await fetch(`${running.url}/v1/custom-functions`, { headers: { 'x-api-key': added.apiKey } });
    expect(answer.status).toBe(200);
    expect(() => running.addAccount({ plan: 'business', name: 'again', apiKey: added.apiKey })).toThrow(/same API key/);
    writeDevState(root, {
      platformUrl: running.url,
      accounts: [{ name: 'client-cora', apiKey: added.apiKey, baseUrl: running.url }],
    });
    expect(readDevState(root)?.accounts?.map((account) => account.name)).toEqual(['client-cora']);
    expect(readFileSync(join(root, '.wrangler', 'dev.json'), 'utf8')).not.toContain('apiKeyEnvv');
  });

  it("serves an account whose key is in the store when deployed with its local key, under dev's build only", () => {
    save({ accounts: [agency, { name: 'client-cora' }] });
    generate(root);
    expect(readFileSync(join(root, 'generated/accounts.ts'), 'utf8')).not.toContain('AGENT_FUNCTIONS_LOCAL_KEY');
    generate(root, new Set(), { dev: true });
    expect(readFileSync(join(root, 'generated/accounts.ts'), 'utf8')).toContain(
      `"apiKeyEnv": "${localKeyEnv('client-cora')}"`,
    );
    const { vars } = devVars(root, {
      platformUrl: 'http://127.0.0.1:1',
      platformApiKey: 'local-agency-key',
      accounts: [
        { name: 'agency', apiKey: 'local-agency-key', baseUrl: 'http://127.0.0.1:1' },
        { name: 'client-cora', apiKey: 'local-client-cora-account-key', baseUrl: 'http://127.0.0.1:1' },
      ],
    });
    expect(vars).toMatchObject({ AGENT_FUNCTIONS_LOCAL_KEY_CLIENT_CORA: 'local-client-cora-account-key' });
    generate(root);
    save({ accounts: [agency, acme] });
  });
});
