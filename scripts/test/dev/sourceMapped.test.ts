// Dev prints where a handler threw in the project's own file, not in wrangler's bundle.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { sourceMapped } from '../../dev/sourceMapped.ts';

describe('a handler_failed line under npm run dev', () => {
  it("names the function file's line and column instead of the bundle's", async () => {
    const root = mkdtempSync(join(tmpdir(), 'dev-sourcemap-'));
    mkdirSync(join(root, 'functions'));
    mkdirSync(join(root, '.wrangler', 'tmp', 'dev-x'), { recursive: true });
    writeFileSync(
      join(root, 'functions', 'tell_time.ts'),
      'export const handler = (order?: { id: string }) => {\n  const shown: string = "x";\n  return shown + order!.id;\n};\n',
    );
    writeFileSync(
      join(root, 'worker.ts'),
      "import { handler } from './functions/tell_time.ts';\nexport default handler;\n",
    );
    const bundle = join(root, '.wrangler', 'tmp', 'dev-x', 'worker.js');
    await build({
      absWorkingDir: root,
      entryPoints: ['worker.ts'],
      bundle: true,
      format: 'esm',
      sourcemap: 'external',
      outfile: bundle,
      logLevel: 'silent',
    });
    // Where the bundle has `order.id`, as the runtime's stack would name it.
    const lines = readFileSync(bundle, 'utf8').split('\n');
    const line = lines.findIndex((text) => text.includes('order.id'));
    const column = (lines[line] as string).indexOf('order.id');
    const logged = `{"level":"error","event":"handler_failed","error":"TypeError","message":"Cannot read properties of undefined (reading 'id')","at":"${pathToFileURL(bundle).href}:${line + 1}:${column + 1}"}\n`;
    const shown = sourceMapped(logged, root);
    expect(shown).toContain('"at":"functions/tell_time.ts:3:');
    expect(shown).not.toContain('worker.js');
  });

  it('leaves every other line as it is', () => {
    const line = '{"level":"info","event":"invocation","status":200}\n';
    expect(sourceMapped(line, '/nowhere')).toBe(line);
  });
});
