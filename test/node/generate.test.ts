import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionNames, generate, registrySource } from '../../scripts/generate.ts';

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
});
