// The real command, end to end: `agent-functions sync` reads the manifest from the Worker
// (wrangler, workerd) and talks to the local platform over HTTP.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintWorkflows } from '../scripts/lint/workflows.ts';
import type { RunningEmulator } from '../scripts/platform/emulator.ts';
import { functionNames } from '../scripts/project/generated.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { keyOf, ORIGIN, platform, recordsOf, SECRET } from '../scripts/test/sync/helpers.ts';
import { agentFunctions, npmRunEnv } from './cli.ts';

const root = PROJECT_ROOT;
const run = promisify(execFile);

const cli = async (args: string[], env: Record<string, string>) => {
  try {
    const { stdout, stderr } = await run(...agentFunctions('sync', ...args), {
      cwd: root,
      env: npmRunEnv(root, env),
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

describe('npm run sync', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await platform();
  });
  afterAll(() => emulator.close());

  it('plans from the functions the Worker serves, then applies them', async () => {
    const env = {
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_API_KEY: keyOf(emulator, 'business'),
      FUNCTIONS_BASE_URL: ORIGIN,
      FUNCTIONS_SECRET: SECRET,
    };
    const plan = await cli(['--dry-run', '--json', '--exit-code'], env);
    expect(plan.code).toBe(2);
    const document = JSON.parse(plan.stdout);
    expect(document.functions).toEqual(functionNames(join(PROJECT_ROOT, 'functions')));
    expect(recordsOf(emulator, 'business')).toEqual([]);

    const applied = await cli([], env);
    expect(applied.code).toBe(0);
    expect(recordsOf(emulator, 'business').map((r) => r.name)).toEqual(document.functions);
  }, 120_000);

  it('names the missing variables without starting anything', async () => {
    const result = await cli([], {
      PLATFORM_BASE_URL: '',
      PLATFORM_API_KEY: '',
      FUNCTIONS_BASE_URL: '',
      FUNCTIONS_SECRET: '',
    });
    expect(result.code).toBe(1);
    expect(
      result.stderr
        .split('\n')
        .filter((line) => line.startsWith('Missing '))
        .map((l) => l.split(':')[0]),
    ).toEqual([
      'Missing FUNCTIONS_BASE_URL',
      'Missing FUNCTIONS_SECRET',
      'Missing PLATFORM_BASE_URL',
      'Missing PLATFORM_API_KEY',
    ]);
  }, 30_000);
});

describe('the GitHub workflows', () => {
  it('pass actionlint', async () => {
    const { files, problems } = await lintWorkflows();
    expect(files).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
  });
});
