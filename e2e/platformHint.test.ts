// The line `npm run platform` prints to try sync against it must work as printed.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { agentFunctions, npmRunEnv } from './cli.ts';

describe("the local platform's start-up hint", () => {
  it('is a sync command that works as printed', async () => {
    const platform = spawn(...agentFunctions('platform', '--port', '0'), { cwd: PROJECT_ROOT, env: npmRunEnv() });
    try {
      let output = '';
      platform.stdout.setEncoding('utf8');
      while (!/^Try: .*$/m.test(output)) {
        const [chunk] = (await once(platform.stdout, 'data')) as [string];
        output += chunk;
      }
      const hint = /^Try: (.*)$/m.exec(output)?.[1] ?? '';
      expect(hint).toMatch(/FUNCTIONS_BASE_URL=\S+ FUNCTIONS_SECRET=\S{24,} npm run sync$/);
      // Run in a shell exactly as a person pastes it (variables already set in the environment would win over .env).
      const env = npmRunEnv();
      for (const name of ['FUNCTIONS_BASE_URL', 'FUNCTIONS_SECRET', 'PLATFORM_BASE_URL', 'PLATFORM_API_KEY'])
        delete env[name];
      const run = spawnSync('sh', ['-c', hint], { cwd: PROJECT_ROOT, encoding: 'utf8', env });
      expect(run.stderr).not.toMatch(/Missing|Bad /);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/default: synced: \d+ created/);
    } finally {
      platform.kill();
    }
  }, 120_000);
});
