// `npm run --silent sync -- --json | jq`: what reaches stdout through npm itself, not only from the script.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';

describe('npm run --silent sync -- --json', () => {
  it("prints one JSON document on stdout and nothing else, not even npm's own header", () => {
    const run = spawnSync('npm', ['run', '--silent', 'sync', '--', '--json'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      // Set but empty: the run stops at its settings, before starting anything (.env cannot fill them in).
      env: {
        ...process.env,
        FUNCTIONS_BASE_URL: '',
        FUNCTIONS_SECRET: '',
        PLATFORM_BASE_URL: '',
        PLATFORM_API_KEY: '',
      },
    });
    expect(run.status).toBe(1);
    const document = JSON.parse(run.stdout) as { ok: boolean; problems: string[] };
    expect(document.ok).toBe(false);
    expect(document.problems).toContain('See npm run sync -- --help.');
  });
});
