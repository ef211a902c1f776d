// Sync against a deliberately hostile platform (a real local server answering by hand), one case
// each: an endless list, ids that climb out of their path, control characters in every text.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../platform/emulator.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { endlessList, type HostileAnswer, json, startHostile } from '../platform/hostile.ts';
import { keyOf, ORIGIN, platform, recordsOf, sync } from './helpers.ts';

const served: ServedFunction[] = ['alpha_one', 'beta_two'].map((name) => ({
  name,
  description: `Does ${name}. Call it when asked.`,
  parameters: { q: 'string' },
  path: `/functions/${name}`,
}));

const dir = mkdtempSync(join(tmpdir(), 'sync-hostile-'));
let hostile: Awaited<ReturnType<typeof startHostile>> | undefined;
let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await hostile?.close();
  await emulator?.close();
  hostile = undefined;
  emulator = undefined;
});

/** Sync against the hostile server alone (the default account's base url). */
const against = async (answer: HostileAnswer, args: string[] = []) => {
  hostile = await startHostile(answer);
  emulator = await platform();
  return sync(emulator, served, args, { env: { PLATFORM_BASE_URL: hostile.url, PLATFORM_API_KEY: 'k' } });
};

// Everything but the line feed that ends each line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/;

describe('sync against a hostile platform', () => {
  it('stops reading an endless list at --max-response-mib, says so, and still syncs the other account', async () => {
    hostile = await startHostile(endlessList);
    emulator = await platform();
    const accounts = join(dir, 'two.json');
    writeFileSync(
      accounts,
      JSON.stringify({
        accounts: [
          { name: 'hostile', apiKeyEnv: 'HOSTILE_KEY', baseUrl: hostile.url },
          { name: 'good', apiKeyEnv: 'GOOD_KEY', baseUrl: emulator.url },
        ],
      }),
    );
    const run = await sync(emulator, served, ['--accounts', accounts, '--max-response-mib', '1'], {
      env: { HOSTILE_KEY: 'k', GOOD_KEY: keyOf(emulator, 'agency') },
    });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(
      "hostile: failed: GET /v1/custom-functions: the platform's answer is larger than 1 MiB; stopped reading it.",
    );
    expect(run.stdout).toContain('good: synced: 2 created');
    expect(recordsOf(emulator, 'agency')).toHaveLength(2);
    expect(hostile.written()).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses ids "." and ".." with --prune: never DELETE /v1/ or DELETE /v1/custom-functions/', async () => {
    const ours = (id: string, name: string) => ({
      id,
      name,
      description: 'Gone.',
      url: `${ORIGIN}/functions/${name}?key=k`,
      parameters: {},
    });
    const run = await against(
      (request, response) => {
        if (request.method === 'GET') return json([ours('.', 'gone_one'), ours('..', 'gone_two')])(request, response);
        json({ id: 'cf_new' }, request.method === 'POST' ? 201 : 200)(request, response);
      },
      ['--prune'],
    );
    const deletes = hostile?.hits.filter((hit) => hit.method === 'DELETE') ?? [];
    expect(deletes).toEqual([]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(
      '✗ delete gone_one failed: Not sent: the custom function id "." is not one safe path segment',
    );
    expect(run.stdout).toContain(
      '✗ delete gone_two failed: Not sent: the custom function id ".." is not one safe path segment',
    );
  });

  it('prints no control character the platform sent: names, urls, descriptions, refusals', async () => {
    const forged = '\u001b[2K\r✓ synced: 0 created\u0007\u009b31m\u2028';
    const run = await against((request, response) => {
      if (request.method === 'GET') {
        return json({
          data: [
            // Ours, with a description that differs: its diff quotes the platform's text.
            {
              id: 'cf_1',
              name: 'alpha_one',
              description: `Old${forged}`,
              url: `${ORIGIN}/functions/alpha_one?key=k`,
              parameters: { q: 'string' },
            },
            // Someone else's under our name: a conflict quoting its url.
            { id: 'cf_2', name: 'beta_two', description: 'x', url: `https://evil.example/${forged}`, parameters: {} },
            // Ours, gone from functions/: kept, its name quoted.
            {
              id: 'cf_3',
              name: `old${forged}`,
              description: 'x',
              url: `${ORIGIN}/functions/old_fn?key=k`,
              parameters: {},
            },
          ],
        })(request, response);
      }
      json({ error: { code: `bad${forged}`, message: `refused${forged}` } }, 422)(request, response);
    });
    expect(run.exitCode).toBe(1);
    const printed = run.stdout + run.stderr;
    expect(printed).toContain('refused');
    expect(printed).toContain('? keep       old');
    expect(printed).not.toMatch(CONTROL);
  });
});
