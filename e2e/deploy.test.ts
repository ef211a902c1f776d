// `npm run deploy` with the real wrangler: production is named, so wrangler no longer warns that
// "no target environment was specified" (it did with a bare `wrangler deploy`, wrangler.toml having
// [env.staging]); --dry-run builds without an account and leaves the queues alone.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { agentFunctions, npmRunEnv } from './cli.ts';

const run = promisify(execFile);

describe('npm run deploy', () => {
  it('names production for wrangler, so it does not warn about environments', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agent-functions-deploy-'));
    try {
      const { stdout, stderr } = await run(...agentFunctions('deploy', '--dry-run', '--outdir', out), {
        cwd: PROJECT_ROOT,
        env: npmRunEnv(PROJECT_ROOT, { NO_COLOR: '1', CLOUDFLARE_API_TOKEN: '', CLOUDFLARE_ACCOUNT_ID: '' }),
        timeout: 120_000,
      });
      const output = `${stdout}\n${stderr}`;
      expect(output).toContain('--dry-run: exiting now.');
      expect(output).not.toContain('no target environment was specified');
      expect(output).not.toMatch(/queues? (info|create)/i);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 150_000);
});
