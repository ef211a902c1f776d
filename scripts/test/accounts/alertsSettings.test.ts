// An account's own alert thresholds in platform.accounts.json (`alerts`, docs/observability.md
// "Alert settings"): checked by the accounts file's schema, handed to the Worker in
// generated/accounts.ts (src/test/metrics/alerts.test.ts checks the Worker reads them over the
// project's thresholds).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseAccountsConfig, workerAccounts } from '../../project/accounts.ts';

const agency = { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY' };

describe("an account's alert thresholds", () => {
  it('are checked by the accounts file, each problem naming its field', () => {
    const valid = {
      accounts: [agency, { name: 'client-acme', apiKeyEnv: 'ACME_KEY', alerts: { errorRate: 0.5, minCalls: 10 } }],
    };
    expect(parseAccountsConfig(valid, 'x.json').accounts[1]?.alerts).toEqual({ errorRate: 0.5, minCalls: 10 });
    const wrong = {
      accounts: [agency, { name: 'client-acme', apiKeyEnv: 'ACME_KEY', alerts: { errorRate: 2, every: 5 } }],
    };
    expect(() => parseAccountsConfig(wrong, 'x.json')).toThrow(ConfigError);
    expect(() => parseAccountsConfig(wrong, 'x.json')).toThrow(
      /account "client-acme": alerts\.errorRate: [\s\S]*account "client-acme": alerts: unknown key "every"/,
    );
  });

  it('reach the Worker with their account, in generated/accounts.ts', () => {
    const root = mkdtempSync(join(tmpdir(), 'alerts-settings-'));
    const accounts = [agency, { name: 'client-acme', apiKeyEnv: 'ACME_KEY', alerts: { errorRate: 0.5, off: false } }];
    writeFileSync(join(root, 'platform.accounts.json'), JSON.stringify({ accounts }));
    const option = workerAccounts(root);
    expect(option.list[1]).toMatchObject({ name: 'client-acme', alerts: { errorRate: 0.5, off: false } });
    expect(option.list[0]).not.toHaveProperty('alerts');
  });
});
