import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenEntry, brokenFunctions } from '../../project/builds.ts';
import { generate } from '../../project/generated.ts';

const GOOD = "import { helper } from './_helper.ts';\nexport default { description: helper };\n";

const project = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-builds-'));
  mkdirSync(join(dir, 'functions'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'wrangler.toml'), 'main = "worker.ts"\n');
  writeFileSync(join(dir, 'functions', '_helper.ts'), "export const helper = 'ok';\n");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe('which files would break the Worker under npm run dev', () => {
  it("names a function file with a syntax error, with esbuild's line and column, and only that one", async () => {
    const dir = project({
      'functions/good.ts': GOOD,
      'functions/typo.ts': 'export default {\n  description: "x",,\n};\n',
    });
    const broken = await brokenFunctions(dir, ['good', 'typo']);
    expect(broken.map((b) => b.file)).toEqual(['functions/typo.ts']);
    expect(broken[0]?.message).toContain('[ERROR] Expected identifier but found ","');
    expect(broken[0]?.message).toContain('functions/typo.ts:2:19:');
  });

  it('names a function file that imports a file that does not exist', async () => {
    const dir = project({ 'functions/lost.ts': "import { gone } from './_gone.ts';\nexport default gone;\n" });
    const broken = await brokenFunctions(dir, ['lost']);
    expect(broken[0]?.message).toContain('Could not resolve "./_gone.ts"');
  });

  it("checks the Worker's entry without the generated registry, so only the entry's own imports count", async () => {
    const entry = "import { functions } from './generated/functions.ts';\nexport default { functions };\n";
    expect(await brokenEntry(project({ 'worker.ts': entry }))).toBeUndefined();
    const broken = await brokenEntry(project({ 'worker.ts': `${entry}export const x = ;\n` }));
    expect(broken?.file).toBe('worker.ts');
    expect(broken?.message).toContain('[ERROR] Unexpected ";"');
    expect(broken?.message).toContain('worker.ts:3:17:');
  });

  it('writes a registry without the files left out, naming them so the Worker answers them 503, not 404', () => {
    const dir = project({ 'functions/good.ts': GOOD, 'functions/typo.ts': 'x' });
    expect(generate(dir, new Set(['typo']))).toEqual(['good']);
    const registry = readFileSync(join(dir, 'generated', 'functions.ts'), 'utf8');
    expect(registry).toContain("import $good from '../functions/good.ts';");
    expect(registry).not.toContain("'../functions/typo.ts'");
    expect(registry).toContain('withUnbuilt(');
    expect(registry).toContain('["typo"]');
  });

  it('writes the plain registry when every file builds', () => {
    const dir = project({ 'functions/good.ts': GOOD });
    generate(dir, new Set());
    expect(readFileSync(join(dir, 'generated', 'functions.ts'), 'utf8')).not.toContain('withUnbuilt');
  });
});

describe('a function file that builds but fails when the Worker loads it', () => {
  it('is left out like one that does not build, named with its line: z.strng() is no zod method', async () => {
    // A copy of the project, so the file's imports (zod, agent-functions) resolve as in a project.
    const { copyProject } = await import('../project.ts');
    const { rmSync } = await import('node:fs');
    const dir = copyProject({
      'functions/typo_fn.ts': [
        "import { defineFunction } from 'agent-functions';",
        "import { z } from 'zod';",
        '',
        'export default defineFunction({',
        "  description: 'Has a typo in its schema. Call it when the customer asks to see a typo.',",
        "  parameters: z.object({ name: z.strng().describe('A name') }),",
        "  effect: 'read',",
        '  handler: ({ name }) => ({ summary: name }),',
        '});',
        '',
      ].join('\n'),
    });
    try {
      // Every function of the copy: the project's own (a Durable Object among them) and the typo.
      const { functionNames } = await import('../../project/generated.ts');
      const broken = await brokenFunctions(dir, functionNames(join(dir, 'functions')));
      expect(broken.map((b) => b.file)).toEqual(['functions/typo_fn.ts']);
      expect(broken[0]?.message).toContain('functions/typo_fn.ts:6:');
      expect(broken[0]?.message).toContain('z.strng is not a function');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('is named too in a project whose folder has a space in its name ("Acme Dental")', async () => {
    const { rmSync, symlinkSync } = await import('node:fs');
    const { PROJECT_ROOT } = await import('../repo.ts');
    const parent = mkdtempSync(join(tmpdir(), 'dev-builds-'));
    const dir = join(parent, 'Acme Dental');
    try {
      mkdirSync(join(dir, 'functions'), { recursive: true });
      symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      writeFileSync(
        join(dir, 'functions', 'typo_fn.ts'),
        "import { z } from 'zod';\nexport default { parameters: z.object({ name: z.strng() }) };\n",
      );
      const broken = await brokenFunctions(dir, ['typo_fn']);
      expect(broken[0]?.message).toContain('functions/typo_fn.ts:2:');
      expect(broken[0]?.message).toContain('z.strng is not a function');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }, 30_000);
});
