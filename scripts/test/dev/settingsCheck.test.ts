// dev's check of the settings the served functions declare: what `npm run secrets -- check --local` says, once per change.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsCheck } from '../../dev/settingsCheck.ts';
import type { ServedFunction } from '../../project/manifest.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const served = (secrets: string[], vars: string[] = []) =>
  [{ name: 'issue_discount', description: 'x', parameters: {}, secrets, vars }] as unknown as ServedFunction[];

describe("dev's check of declared settings", () => {
  it('says each declared setting the local Worker lacks once, where to add it, and when none is missing', () => {
    const root = mkdtempSync(join(tmpdir(), 'dev-settings-'));
    dirs.push(root);
    writeFileSync(join(root, 'wrangler.toml'), 'name = "x"\nmain = "worker.ts"\n[vars]\nREGION = "eu"\n');
    writeFileSync(join(root, '.dev.vars'), 'SET_KEY=abc\nBLANK_KEY=\n');
    const said: string[] = [];
    const check = settingsCheck({
      root,
      supplied: ['FUNCTIONS_SECRET', 'PLATFORM_API_KEY'],
      warn: (text) => said.push(`warn: ${text}`),
      say: (text) => said.push(`say: ${text}`),
    });
    check(served(['SET_KEY', 'BLANK_KEY', 'DISCOUNT_API_KEY', 'PLATFORM_API_KEY'], ['REGION']));
    expect(said).toEqual([
      'warn: Missing BLANK_KEY (secret of issue_discount): add it to .dev.vars (see .dev.vars.example). Until then its calls answer 503 not_configured.',
      'warn: Missing DISCOUNT_API_KEY (secret of issue_discount): add it to .dev.vars (see .dev.vars.example). Until then its calls answer 503 not_configured.',
    ]);
    check(served(['SET_KEY', 'BLANK_KEY', 'DISCOUNT_API_KEY']));
    expect(said).toHaveLength(2);
    check(served(['SET_KEY']));
    expect(said.at(-1)).toBe('say: every setting the functions declare is set.');
  });
});
