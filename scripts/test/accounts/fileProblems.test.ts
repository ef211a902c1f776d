// What a person reads when platform.accounts.json is wrong: one line per problem, naming the account
// by its name (never its place in the list) and the key, and each account's settings checked against
// the project's own schema (lib/settings.ts's accountSettings), as dev, generate, sync and
// `accounts add` check them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseAccountsConfig } from '../../project/accounts.ts';
import { generateForBuild } from '../../project/generated.ts';
import { checkAccountSettings, loadSettingsSchema, settingsProblems } from '../../project/settingsSchema.ts';
import { copyProject } from '../project.ts';
import { PROJECT_ROOT } from '../repo.ts';

const agency = { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' };
const acme = { name: 'client-acme', apiKeyEnv: 'ACME_PLATFORM_API_KEY', baseUrl: 'https://app.acme-brand.com' };
const bolt = { name: 'client-bolt', apiKeyEnv: 'BOLT_PLATFORM_API_KEY', baseUrl: 'https://app.bolt.example' };

const problemOf = (content: unknown): string => {
  try {
    parseAccountsConfig(content, 'platform.accounts.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
};

describe('a bad accounts file', () => {
  it('names the account of a misspelled key by its name, in one line', () => {
    const message = problemOf({ accounts: [agency, acme, { ...bolt, apiKeyEnvv: 'BOLT_KEY' }] });
    expect(message).toBe(
      'platform.accounts.json: account "client-bolt": unknown key "apiKeyEnvv" (did you mean "apiKeyEnv"?)',
    );
    expect(message).not.toMatch(/accounts\.2/);
  });

  it('names the duplicated account', () => {
    expect(problemOf({ accounts: [agency, acme, { ...bolt, name: 'client-acme' }] })).toBe(
      'platform.accounts.json: account "client-acme" is listed twice: each account needs a name of its own.',
    );
  });

  it('names the account and key of a bad value, and an account without a name by its place', () => {
    const message = problemOf({ accounts: [agency, { ...acme, apiKeyEnv: 'acme-key' }, { apiKeyEnv: 'X' }] });
    expect(message.split('\n')).toEqual([
      'platform.accounts.json is not a valid accounts file:',
      '  - account "client-acme": apiKeyEnv: must be an environment variable name such as ACME_PLATFORM_API_KEY',
      '  - the 3rd account (it has no name): name: Invalid input: expected string, received undefined',
    ]);
  });

  it('names a misspelled key at the top level', () => {
    expect(problemOf({ accounts: [agency], setings: {} })).toBe(
      'platform.accounts.json: unknown key "setings" (did you mean "settings"?)',
    );
  });
});

describe("each account's settings, checked against the project's schema", () => {
  it('are declared once, in lib/settings.ts beside AccountSettings', async () => {
    const schema = await loadSettingsSchema(PROJECT_ROOT);
    expect(schema).toBeDefined();
    expect(readFileSync(join(PROJECT_ROOT, 'lib/settings.ts'), 'utf8')).toMatch(/interface AccountSettings/);
  });

  it('refuse a misspelled openingHours, naming the account and the key', async () => {
    const schema = await loadSettingsSchema(PROJECT_ROOT);
    const config = parseAccountsConfig(
      {
        settings: { timezone: 'Europe/London' },
        accounts: [agency, { ...acme, settings: { openingHour: { '1': ['09:00', '17:00'] } } }],
      },
      'platform.accounts.json',
    );
    expect(settingsProblems(config, schema)).toEqual([
      'account "client-acme": settings: unknown key "openingHour" (did you mean "openingHours"?)',
    ]);
  });

  it("name a bad value of the file's top-level settings once, not once per account", async () => {
    const schema = await loadSettingsSchema(PROJECT_ROOT);
    const config = parseAccountsConfig(
      { settings: { timezone: 3 }, accounts: [agency, acme, bolt] },
      'platform.accounts.json',
    );
    expect(settingsProblems(config, schema)).toEqual([
      "settings (every account's): timezone: Invalid input: expected string, received number",
    ]);
  });

  it("accept the examples' settings as the docs show them", async () => {
    const schema = await loadSettingsSchema(PROJECT_ROOT);
    const config = parseAccountsConfig(
      {
        settings: { timezone: 'Europe/London' },
        accounts: [
          { ...agency, settings: { handoffContactId: 'ct_agency_team' } },
          { ...acme, settings: { timezone: 'Europe/Paris', openingHours: { '1': ['09:00', '17:30'] } } },
        ],
      },
      'platform.accounts.json',
    );
    expect(settingsProblems(config, schema)).toEqual([]);
  });

  it('stop a project whose file has one, and pass one without lib/settings.ts', async () => {
    const root = copyProject();
    writeFileSync(
      join(root, 'platform.accounts.json'),
      JSON.stringify({ accounts: [agency, { ...bolt, settings: { openingHour: {} } }] }),
    );
    await expect(checkAccountSettings(root)).rejects.toThrow(
      'platform.accounts.json: account "client-bolt": settings: unknown key "openingHour" (did you mean "openingHours"?)',
    );
    writeFileSync(join(root, 'lib/settings.ts'), 'export {};\n');
    await expect(checkAccountSettings(root)).resolves.toBeUndefined();
  });
});

describe('generate', () => {
  it('fails a build on a misspelled setting; under dev, keeps the last good accounts serving', async () => {
    const root = copyProject();
    const good = { accounts: [agency, acme] };
    writeFileSync(join(root, 'platform.accounts.json'), JSON.stringify(good));
    await generateForBuild(root);
    const served = readFileSync(join(root, 'generated/accounts.ts'), 'utf8');
    expect(served).toContain('"client-acme"');
    writeFileSync(
      join(root, 'platform.accounts.json'),
      JSON.stringify({ accounts: [agency, { ...acme, settings: { openingHour: {} } }, bolt] }),
    );
    await expect(generateForBuild(root)).rejects.toThrow(/account "client-acme": settings: unknown key "openingHour"/);
    const before = process.env.AGENT_FUNCTIONS_DEV;
    process.env.AGENT_FUNCTIONS_DEV = '1';
    try {
      await generateForBuild(root);
    } finally {
      if (before === undefined) delete process.env.AGENT_FUNCTIONS_DEV;
      else process.env.AGENT_FUNCTIONS_DEV = before;
    }
    expect(readFileSync(join(root, 'generated/accounts.ts'), 'utf8')).toBe(served);
  });
});
