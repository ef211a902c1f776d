// The MCP conformance suite (@modelcontextprotocol/conformance, its own CLI and client) against
// the project's Worker served locally by wrangler's test harness, as `npm run dev` serves it:
// development mode, so `/mcp` is open and must refuse a rebinding Host. The scenarios that apply
// to a server of tools only; the others test resources, prompts, sampling and fixed test tools.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';

const run = promisify(execFile);

const CLI = join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** Every server scenario that applies to a Worker serving functions as tools. */
const APPLICABLE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;

type Check = { id: string; status: string; errorMessage?: string };

let stop: (() => Promise<void>) | undefined;
let endpoint: string;
let output: string;

const checksOf = async (dir: string): Promise<Check[]> => {
  const checks: Check[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    if (entry.endsWith('checks.json'))
      checks.push(...(JSON.parse(await readFile(join(dir, entry), 'utf8')) as Check[]));
  }
  return checks;
};

describe('MCP conformance server scenarios', () => {
  beforeAll(async () => {
    process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
    const { createTestHarness } = await import('wrangler');
    const server = createTestHarness({
      root: PROJECT_ROOT,
      workers: [{ configPath: './wrangler.toml', vars: { AGENT_FUNCTIONS_MODE: 'development' } }],
    });
    const { url } = await server.listen();
    stop = () => server.close();
    // The rebinding scenario needs a loopback url, and checks Host against it.
    endpoint = new URL('/mcp', `http://localhost:${url.port}`).href;
    output = await mkdtemp(join(tmpdir(), 'agent-functions-conformance-'));
  }, 120_000);

  afterAll(async () => {
    await stop?.();
    if (output) await rm(output, { recursive: true, force: true });
  });

  it.each(APPLICABLE_SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const dir = join(output, scenario);
      // The CLI exits non-zero when a check fails; checks.json says which.
      const exitCode = await run(
        process.execPath,
        [CLI, 'server', '--url', endpoint, '--scenario', scenario, '-o', dir],
        {
          cwd: output,
        },
      ).then(
        () => 0,
        (error: { code?: number }) => error.code ?? 1,
      );
      const checks = await checksOf(dir);
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((check) => check.status !== 'SUCCESS')).toEqual([]);
      expect(exitCode).toBe(0);
    },
    60_000,
  );
});
