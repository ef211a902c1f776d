// What `npm run dev` prints while a developer saves files (issue 40, items 10, 11, 13): a save says
// what changed in a line or two; wrangler's bindings table is shown once; no telemetry banner and
// no advice to run wrangler types; a file that throws when it loads is named at the save; a
// declared secret that is not set is said at the save, and its calls answer 503 not_configured.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlatformClient } from 'agent-functions/platform';
import { PLACEHOLDER_DESCRIPTION } from 'agent-functions/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevRun, newcomerFiles, startDev } from '../scripts/test/dev/harness.ts';
import { fixtureProject } from '../scripts/test/project.ts';

let dev: DevRun;

beforeAll(async () => {
  dev = await startDev(fixtureProject(newcomerFiles()));
  await dev.waitFor(/edit functions\/ or events\/ and it re-syncs/);
}, 180_000);

afterAll(async () => {
  await dev?.stop();
  if (dev) rmSync(dev.dir, { recursive: true, force: true });
});

/** A function file with this description (and these declared secrets, read by its handler). */
const definition = (description: string, secrets: string[] = []) =>
  [
    "import { z } from 'zod';",
    "import { defineFunction } from 'agent-functions';",
    'export default defineFunction({',
    `  description: '${description}',`,
    '  parameters: z.object({}),',
    ...(secrets.length > 0 ? [`  secrets: ${JSON.stringify(secrets)},`] : []),
    `  handler: (_args, { env }) => ({ length: ${secrets.length > 0 ? `env.${secrets[0]}.length` : '0'} }),`,
    '});',
    '',
  ].join('\n');

const platform = () => {
  const [, baseUrl = '', apiKey = ''] =
    /local platform on (\S+) \(Agency account key: (\S+)\)/.exec(dev.output()) ?? [];
  return createPlatformClient({ baseUrl, apiKey });
};
const descriptionOf = async (name: string) =>
  (await platform().customFunctions.list()).find((fn) => fn.name === name)?.description;
const POLL = { timeout: 60_000, interval: 500 };
/** dev's own lines and the sync's, without wrangler's request log and reload lines. */
const ownLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^\[wrangler:|^⎔|changed, restarting build|^\[custom build\]/.test(line));

describe('npm run dev, while files are saved', () => {
  it('shows no telemetry banner, names npm run generate rather than wrangler types, and the bindings table once', async () => {
    const file = join(dev.dir, 'functions', 'zz_quiet.ts');
    writeFileSync(file, definition('First words. Call it never.'));
    await expect.poll(() => descriptionOf('zz_quiet'), POLL).toContain('First words');
    expect(dev.output()).not.toMatch(/collects anonymous telemetry/);
    expect(dev.output()).not.toMatch(/Re-run `wrangler types`/);
    expect(dev.output().match(/Your Worker has access to the following bindings/g)?.length).toBe(1);
  }, 120_000);

  it('prints what a save changed in a line or two, not the whole plan', async () => {
    const before = dev.output().length;
    writeFileSync(join(dev.dir, 'functions', 'zz_quiet.ts'), definition('Second words. Call it never.'));
    await expect.poll(() => descriptionOf('zz_quiet'), POLL).toContain('Second words');
    await expect.poll(() => dev.output().slice(before), POLL).toMatch(/zz_quiet/);
    const said = ownLines(dev.output().slice(before));
    expect(said.join('\n')).not.toMatch(/unchanged/);
    expect(said.length, said.join('\n')).toBeLessThanOrEqual(2);
  }, 120_000);

  it('says a placeholder description once, not also as a function the platform lacks', async () => {
    const before = dev.output().length;
    writeFileSync(join(dev.dir, 'functions', 'zz_draft.ts'), definition(PLACEHOLDER_DESCRIPTION));
    await dev.waitFor(/zz_draft\.ts\. The others are synced/, 60_000);
    // A reload more, and the drift check after it.
    writeFileSync(join(dev.dir, 'functions', '_zz_helper.ts'), 'export const helper = 1;\n');
    await new Promise((resolve) => setTimeout(resolve, 8000));
    expect(dev.output().slice(before)).not.toMatch(/lacks zz_draft/);
    rmSync(join(dev.dir, 'functions', 'zz_draft.ts'));
  }, 120_000);

  it('names the file, the line and the error of a function file that throws when it loads, at the save', async () => {
    const before = dev.output().length;
    writeFileSync(
      join(dev.dir, 'functions', 'zz_throws.ts'),
      definition('Throws words. Call it never.').replace('z.object({})', 'z.object({ id: z.strng() })'),
    );
    const [match] = await dev.waitFor(/functions\/zz_throws\.ts:5\b[^\n]*\n?[^\n]*z\.strng is not a function/, 60_000);
    expect(match).toBeDefined();
    expect(dev.output().slice(before)).not.toMatch(/^\s+at /m);
    rmSync(join(dev.dir, 'functions', 'zz_throws.ts'));
  }, 120_000);

  it('says a declared secret that is not set at the save, and its calls answer 503 not_configured naming it in the log', async () => {
    const before = dev.output().length;
    writeFileSync(
      join(dev.dir, 'functions', 'zz_secret.ts'),
      definition('Secret words. Call it never.', ['ZZ_API_KEY']),
    );
    await dev.waitFor(/Missing ZZ_API_KEY[^\n]*\.dev\.vars/, 60_000);
    await expect.poll(() => descriptionOf('zz_secret'), POLL).toContain('Secret words');
    const call = await dev.post('zz_secret', {});
    expect(call.status).toBe(503);
    expect(JSON.stringify(call.body)).toContain('"code":"not_configured"');
    expect(JSON.stringify(call.body)).not.toContain('ZZ_API_KEY');
    await dev.waitFor(/"event":"setting_missing"[^\n]*ZZ_API_KEY/, 10_000);
    expect(dev.output().slice(before)).not.toMatch(/TypeError/);
  }, 120_000);

  it('marks an answer of npm run platform -- call that is a repeat from the call ledger, as the console does', () => {
    const call = () =>
      spawnSync(
        join(dev.dir, 'node_modules', '.bin', 'agent-functions'),
        ['platform', 'call', 'cancel_plan', '{"reason":"too dear"}'],
        {
          cwd: dev.dir,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1' },
        },
      );
    const first = call();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).not.toMatch(/^repeat:/m);
    const again = call();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^repeat: the stored answer of the same call earlier in this conversation/m);
  }, 60_000);
});
