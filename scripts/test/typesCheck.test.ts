// generate --check skips wrangler when nothing `wrangler types` reads changed since its last pass.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generateTypes, typesCheckStamp, typesInputs } from '../project/generated.ts';
import { forgetStaleTypeChecks } from '../project/typeChecks.ts';
import { PROJECT_ROOT } from './repo.ts';

describe('generate --check, when nothing it reads changed since it last passed', () => {
  const typesProject = (entry = "export { Calendar } from './lib/calendar.ts';\nexport default {};\n") => {
    const base = mkdtempSync(join(tmpdir(), 'types-check-'));
    writeFileSync(join(base, 'wrangler.toml'), 'name = "x"\nmain = "worker.ts"\n\n[vars]\nMODE = "production"\n');
    writeFileSync(join(base, '.dev.vars.example'), 'FUNCTIONS_SECRET=\n');
    writeFileSync(join(base, 'worker-configuration.d.ts'), 'interface Env {}\n');
    writeFileSync(join(base, 'worker.ts'), entry);
    return base;
  };

  it('hashes every file wrangler types reads, and changes with each', () => {
    const base = typesProject();
    const first = typesInputs(base);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(typesInputs(base)).toBe(first);
    for (const file of ['wrangler.toml', '.dev.vars.example', 'worker-configuration.d.ts', 'worker.ts']) {
      const before = readFileSync(join(base, file), 'utf8');
      writeFileSync(join(base, file), `${before}// changed\n`);
      expect(typesInputs(base), file).not.toBe(first);
      writeFileSync(join(base, file), before);
    }
    expect(typesInputs(base)).toBe(first);
  });

  it('never skips wrangler for an entry that re-exports a whole module, or one it cannot find', () => {
    expect(typesInputs(typesProject("export * from './lib/objects.ts';\n"))).toBeUndefined();
    const noMain = typesProject();
    writeFileSync(join(noMain, 'wrangler.toml'), 'name = "x"\n\n[env.staging]\nmain = "worker.ts"\n');
    expect(typesInputs(noMain)).toBeUndefined();
  });

  it('passes without wrangler on the inputs of its last pass, and asks wrangler again once one changed', () => {
    // This folder has no wrangler: a check that starts it fails.
    const base = typesProject();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(generateTypes({ check: true, base })).not.toBe(0);
      mkdirSync(join(typesCheckStamp(base), '..'), { recursive: true });
      writeFileSync(typesCheckStamp(base), typesInputs(base) as string);
      expect(generateTypes({ check: true, base })).toBe(0);
      writeFileSync(join(base, 'wrangler.toml'), 'name = "x"\nmain = "worker.ts"\n');
      expect(generateTypes({ check: true, base })).not.toBe(0);
      expect(stderr.mock.calls.join('')).toContain('worker-configuration.d.ts no longer matches wrangler.toml');
    } finally {
      stderr.mockRestore();
    }
  });
});

describe("tsc's incremental check after npm run generate changed the Env type", () => {
  it('would keep a stale error (TypeScript 7 ignores a changed global declaration file), and does not once generate forgets its state', () => {
    const base = mkdtempSync(join(tmpdir(), 'env-types-'));
    try {
      symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(base, 'node_modules'), 'dir');
      const options = { strict: true, noEmit: true, incremental: true, skipLibCheck: true, types: [] };
      writeFileSync(
        join(base, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: options, include: ['worker-configuration.d.ts', 'uses.ts'] }),
      );
      writeFileSync(join(base, 'uses.ts'), 'export const key = (env: Env): string => env.DISCOUNT_API_KEY;\n');
      const env = (names: string[]) =>
        writeFileSync(
          join(base, 'worker-configuration.d.ts'),
          `interface Env {\n${names.map((name) => `  ${name}: string;\n`).join('')}}\n`,
        );
      const tsc = () =>
        spawnSync(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
          cwd: base,
          encoding: 'utf8',
        });
      env(['SHOP_API_KEY']);
      forgetStaleTypeChecks(base);
      expect(tsc().stdout).toContain("Property 'DISCOUNT_API_KEY' does not exist on type 'Env'");
      // npm run generate added the secret: TypeScript alone still says what it said.
      env(['SHOP_API_KEY', 'DISCOUNT_API_KEY']);
      expect(tsc().stdout).toContain("Property 'DISCOUNT_API_KEY' does not exist on type 'Env'");
      // generate (and npm test's generate --check) forget the state, once per change of the file.
      expect(forgetStaleTypeChecks(base)).toBe(true);
      expect(forgetStaleTypeChecks(base)).toBe(false);
      expect(tsc().status).toBe(0);
      // And the other way: a name taken away is an error again.
      env(['SHOP_API_KEY']);
      forgetStaleTypeChecks(base);
      expect(tsc().status).toBe(1);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }, 30_000);
});
