// Sync run without its settings says where they go: `.env` copied from `.env.example` (or
// `.env.<env>` for --env), not only which variables are missing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../sync/run.ts';
import { capture } from '../capture.ts';
import { emulatorPerTest, ORIGIN, sync } from './helpers.ts';

const syncIn = async (root: string, argv: string[] = []) => {
  const stdout = capture();
  const stderr = capture();
  const run = await runSync(argv, { env: {}, stdout: stdout.stream, stderr: stderr.stream, root });
  return { exitCode: run.exitCode, stderr: stderr.text() };
};

describe('npm run sync without .env', () => {
  it('tells the user to copy .env.example to .env', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sync-env-'));
    writeFileSync(join(root, '.env.example'), 'FUNCTIONS_BASE_URL=\n');
    const { exitCode, stderr } = await syncIn(root, ['--dry-run']);
    expect(exitCode).toBe(1);
    expect(stderr).toContain('Missing FUNCTIONS_BASE_URL');
    expect(stderr).toContain('cp .env.example .env');
  });

  it('names .env.staging for --env staging', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sync-env-'));
    const { stderr } = await syncIn(root, ['--dry-run', '--env', 'staging']);
    expect(stderr).toContain('cp .env.example .env.staging');
  });

  it('says nothing of copying when .env is there', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sync-env-'));
    writeFileSync(join(root, '.env'), '# empty on purpose\n');
    const { stderr } = await syncIn(root, ['--dry-run']);
    expect(stderr).toContain('Missing FUNCTIONS_BASE_URL');
    expect(stderr).not.toContain('cp .env.example');
  });
});

describe("the heading of dev's own sync", () => {
  const start = emulatorPerTest();
  it('names the local platform, not "Environment production"', async () => {
    const platform = await start();
    const run = await sync(platform, [], [], { io: { heading: "The local platform's Agency account (npm run dev)" } });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`The local platform's Agency account (npm run dev): functions at ${ORIGIN}`);
    expect(run.stdout).not.toContain('Environment production');
  });
});
