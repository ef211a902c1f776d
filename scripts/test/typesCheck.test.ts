// generate --check skips wrangler when nothing `wrangler types` reads changed since its last pass.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generateTypes, typesCheckStamp, typesInputs } from '../project/generated.ts';

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
