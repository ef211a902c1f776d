import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerAccounts } from '../project/accounts.ts';
import { functionNames, generate, registrySource } from '../project/generated.ts';

const project = (files: string[]) => {
  const base = mkdtempSync(join(tmpdir(), 'generate-'));
  mkdirSync(join(base, 'functions'));
  for (const file of files) writeFileSync(join(base, 'functions', file), 'export default {};\n');
  return base;
};

describe('the registry generator', () => {
  it('lists every function file, sorted, skipping tests and _helpers', () => {
    const base = project(['b_fn.ts', 'a_fn.ts', 'a_fn.test.ts', '_shared.ts', 'notes.md']);
    expect(functionNames(join(base, 'functions'))).toEqual(['a_fn', 'b_fn']);
  });

  it('refuses a file name the platform would refuse, naming the file', () => {
    const base = project(['CheckOrder.ts']);
    expect(() => functionNames(join(base, 'functions'))).toThrow(/functions\/CheckOrder\.ts: .*snake_case/);
  });

  it('imports names that are reserved words or clash with the registry under an alias', () => {
    const source = registrySource(['delete', 'functions']);
    expect(source).toContain("import $delete from '../functions/delete.ts';");
    expect(source).toContain('  functions: $functions,');
  });

  it('writes generated/functions.ts only when it changed', () => {
    const base = project(['quote.ts']);
    expect(generate(base)).toEqual(['quote']);
    const target = join(base, 'generated', 'functions.ts');
    expect(readFileSync(target, 'utf8')).toContain('quote: $quote,');
    writeFileSync(target, 'stale');
    generate(base);
    expect(readFileSync(target, 'utf8')).toContain('quote: $quote,');
  });

  describe('the events registry', () => {
    const withEvents = (accountsFiles: Record<string, unknown>) => {
      const base = project([]);
      mkdirSync(join(base, 'events'));
      writeFileSync(join(base, 'events', 'deal.moved.ts'), 'export default {};\n');
      for (const [file, content] of Object.entries(accountsFiles)) {
        writeFileSync(join(base, file), JSON.stringify(content));
      }
      return base;
    };
    const agency = { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY' };
    const acme = { name: 'client-acme', apiKeyEnv: 'ACME_API_KEY', baseUrl: 'https://app.acme.example' };

    it("lists the handlers and no account: the Worker resolves each delivery's account as a call's", () => {
      const base = withEvents({ 'platform.accounts.json': { accounts: [agency, acme] } });
      generate(base);
      const source = readFileSync(join(base, 'generated', 'events.ts'), 'utf8');
      expect(source).toContain("'deal.moved': $0,");
      expect(source).not.toContain('client-acme');
      expect(source).not.toContain('undefined');
      const none = project([]);
      generate(none);
      expect(readFileSync(join(none, 'generated', 'events.ts'), 'utf8')).toContain(
        'export const events: EventsService | undefined = undefined;',
      );
    });

    it("adds an environment's accounts, and refuses two files that start with different accounts", () => {
      const extra = { name: 'client-beta', apiKeyEnv: 'BETA_API_KEY' };
      const base = withEvents({
        'platform.accounts.json': { accounts: [agency, acme] },
        'platform.accounts.staging.json': { accounts: [agency, extra] },
      });
      expect(workerAccounts(base).list.map((account) => account.name)).toEqual([
        'agency',
        'client-acme',
        'client-beta',
      ]);
      const clash = withEvents({
        'platform.accounts.json': { accounts: [agency] },
        'platform.accounts.staging.json': { accounts: [acme] },
      });
      // The first account's urls (and its webhook at /events) name no account: every file starts with the same one.
      expect(() => generate(clash)).toThrow(/start with different accounts \("agency" and "client-acme"\)/);
      const renamed = withEvents({
        'platform.accounts.json': { accounts: [agency, acme] },
        'platform.accounts.staging.json': { accounts: [agency, { ...acme, apiKeyEnv: 'OTHER_ACME_KEY' }] },
      });
      expect(() => generate(renamed)).toThrow(/disagree on account "client-acme"/);
    });
  });
});

describe('the accounts module', () => {
  /** The generated accounts module of an accounts file listing the agency and `stored` store-kept clients. */
  const accountsModule = (stored: number, extra: object[] = []) => {
    const base = project([]);
    const clients = Array.from({ length: stored }, (_, i) => ({ name: `client-${i}` }));
    writeFileSync(
      join(base, 'platform.accounts.json'),
      JSON.stringify({ accounts: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY' }, ...clients, ...extra] }),
    );
    generate(base);
    return readFileSync(join(base, 'generated', 'accounts.ts'), 'utf8');
  };

  it('is the same at 5 and at 5,000 accounts kept in the store: nothing in the bundle grows per client', () => {
    const five = accountsModule(5);
    expect(accountsModule(5000)).toBe(five);
    expect(five).not.toContain('client-');
  });

  it('lists an account whose key is a variable, or that has settings, alert thresholds or an address of its own', () => {
    const source = accountsModule(2, [
      { name: 'client-var', apiKeyEnv: 'VAR_KEY' },
      { name: 'client-set', settings: { timezone: 'Europe/Paris' } },
      { name: 'client-alerts', alerts: { errorRate: 0.5 } },
      { name: 'client-white', baseUrl: 'https://app.white.example' },
    ]);
    expect(source).toContain('"client-var"');
    expect(source).toContain('"client-set"');
    expect(source).toContain('"client-alerts"');
    expect(source).toContain('"client-white"');
    expect(source).not.toContain('"client-0"');
  });
});

describe('npm run generate (agent-functions generate --types)', () => {
  it('says what it wrote', async () => {
    const { spawnSync } = await import('node:child_process');
    const { rmSync } = await import('node:fs');
    const { copyProject } = await import('./project.ts');
    const { PROJECT_ROOT } = await import('./repo.ts');
    const dir = copyProject();
    try {
      const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'bin.ts'), 'generate', '--types'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      const names = functionNames(join(dir, 'functions'));
      expect(run.stdout).toContain(`generated/functions.ts: ${names.length} functions`);
      expect(run.stdout).toContain('generated/events.ts:');
      expect(run.stdout).toContain('worker-configuration.d.ts: the Env type');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
