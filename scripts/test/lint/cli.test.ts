import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runFunctionLint } from '../../lint/functions.ts';
import { promptsPath } from '../../lint/golden.ts';
import { loadPrompts } from '../../lint/load.ts';
import type { LintReport } from '../../lint/types.ts';
import { functionFiles } from '../../project/generated.ts';
import { PROJECT_ROOT } from '../repo.ts';
import { fixtureProject, goodDefinition, registered } from './registered.ts';

const run = async (json: boolean, fns = [registered('lookup_order', goodDefinition())]) => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += c));
  const code = await runFunctionLint(
    { json, root: PROJECT_ROOT },
    { out, err: out, source: { functions: async () => fns, prompts: async () => ({}) } },
  );
  return { code, text };
};

describe('agent-functions lint functions', () => {
  it('prints the findings grouped by what a description must carry, with the set size, and exits 0 on warnings only', async () => {
    const { code, text } = await run(false);
    expect(code).toBe(0);
    expect(text).toContain('Golden prompts:\n  warning lookup_order [golden-missing] No golden prompts.');
    expect(text).toMatch(/1 function\(s\), \d+ characters of descriptions \(about \d+ tokens on every model turn\)/);
  });

  it('exits 1 on an error and prints JSON with --json', async () => {
    const vague = registered('lookup_order', { ...goodDefinition(), description: 'Looks up an order.' });
    const { code, text } = await run(true, [vague]);
    expect(code).toBe(1);
    const report = JSON.parse(text) as LintReport;
    expect(report.errors).toBeGreaterThan(0);
    expect(report.findings[0]).toMatchObject({ rule: 'purpose-restates-name', category: 'purpose', severity: 'error' });
  });

  it('finds no error in a project whose prompts sit in test/functions/, read as the command reads them', async () => {
    const { functions, prompts } = fixtureProject();
    const root = mkdtempSync(join(tmpdir(), 'lint-prompts-'));
    try {
      mkdirSync(join(root, 'test', 'functions'), { recursive: true });
      for (const [name, set] of Object.entries(prompts))
        writeFileSync(join(root, promptsPath(name)), `export default ${JSON.stringify(set)};\n`);
      expect(await loadPrompts(root)).toEqual(prompts);
      const out = new PassThrough();
      let text = '';
      out.on('data', (c) => (text += c));
      const code = await runFunctionLint(
        { root },
        { out, err: out, source: { functions: async () => functions, prompts: loadPrompts } },
      );
      expect(code, text).toBe(0);
      expect(text).toContain('0 error(s)');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps functions/ for functions: a prompts file there is no function, and says where it belongs', () => {
    const root = mkdtempSync(join(tmpdir(), 'lint-functions-'));
    try {
      mkdirSync(join(root, 'functions'));
      writeFileSync(join(root, 'functions', 'tell_time.ts'), 'export default {};\n');
      writeFileSync(join(root, 'functions', 'tell_time.prompts.ts'), 'export default { calls: [] };\n');
      expect(functionFiles(join(root, 'functions'))).toEqual({
        names: ['tell_time'],
        badNames: [
          'functions/tell_time.prompts.ts: golden prompts live in test/functions/tell_time.prompts.ts; move the file there.',
        ],
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('agent-functions lint functions, on the Env type', () => {
  it('names npm run generate for a declared secret or var the Env type lacks, and exits 1', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lint-env-'));
    try {
      writeFileSync(join(root, 'worker-configuration.d.ts'), 'interface Env {\n  SHOP_API_KEY: string;\n}\n');
      const declaring = (secrets: string[], vars: string[]) => ({
        ...registered('lookup_order', goodDefinition()),
        secrets,
        vars,
      });
      const lint = async (fn: ReturnType<typeof declaring>) => {
        const out = new PassThrough();
        let text = '';
        out.on('data', (c) => (text += c));
        const code = await runFunctionLint(
          { root },
          { out, err: out, source: { functions: async () => [fn], prompts: async () => ({}) } },
        );
        return { code, text };
      };
      const missing = await lint(declaring(['SHOP_API_KEY', 'DISCOUNT_API_KEY'], ['DISCOUNT_REGION']));
      expect(missing.code).toBe(1);
      expect(missing.text).toContain(
        'functions/lookup_order.ts declares DISCOUNT_API_KEY, which the Env type lacks (worker-configuration.d.ts): add DISCOUNT_API_KEY= to .dev.vars.example (a secret), then run npm run generate.',
      );
      expect(missing.text).toContain('declares DISCOUNT_REGION, which the Env type lacks');
      expect(missing.text).not.toContain('declares SHOP_API_KEY');
      expect((await lint(declaring(['SHOP_API_KEY'], []))).code).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
