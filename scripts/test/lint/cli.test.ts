import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../../descriptions/load.ts';
import type { LintReport } from '../../descriptions/types.ts';
import { runFunctionLint } from '../../lint/functions.ts';
import { functionNames } from '../../project/generated.ts';
import { PROJECT_ROOT } from '../repo.ts';
import { exampleFunctions, goodDefinition, registered } from './registered.ts';

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

  it('finds no error in the shipped examples, read from their Worker as sync reads them, with their prompts', async () => {
    const fns = await exampleFunctions();
    expect(fns.map((fn) => fn.name)).toEqual(functionNames(join(PROJECT_ROOT, 'functions')));
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += c));
    const code = await runFunctionLint(
      { root: PROJECT_ROOT },
      { out, err: out, source: { functions: exampleFunctions, prompts: loadPrompts } },
    );
    expect(code, text).toBe(0);
    expect(text).toContain('0 error(s)');
  }, 60_000);

  it('adds nothing to the Worker: prompts files are not functions, and the registry never imports them', () => {
    const names = functionNames(join(PROJECT_ROOT, 'functions'));
    expect(names.some((name) => name.includes('prompts'))).toBe(false);
    expect(readFileSync(join(PROJECT_ROOT, 'generated', 'functions.ts'), 'utf8')).not.toContain('.prompts');
  });
});
