// The two benchmark Workers on real workerd: the hand-written baseline must accept and refuse
// exactly what the project's Worker does, or the ratio compares different work. Also one short
// load run, asserting its shape (a benchmark asserts no speed).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionKey } from 'agent-functions/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../bench/src/buildWorker.ts';
import { INVALID_BODY, VALID_BODY } from '../bench/src/invocation.ts';
import { loadTest } from '../bench/src/loadTest.ts';
import { BENCH_SECRET, type ServedWorker, serveWorker } from '../bench/src/serveWorker.ts';
import { QUOTE_FUNCTION } from '../bench/workers/quote.ts';

const BODIES: Record<string, unknown> = {
  'all five fields': JSON.parse(VALID_BODY),
  'two wrong fields': JSON.parse(INVALID_BODY),
  'billing left to its default': { plan: 'scale', seats: 1, email: 'a@example.com' },
  'seats as a string': { plan: 'scale', seats: '40', email: 'a@example.com' },
  'seats not whole': { plan: 'scale', seats: 2.5, email: 'a@example.com' },
  'seats zero': { plan: 'scale', seats: 0, email: 'a@example.com' },
  'unknown plan': { plan: 'gold', seats: 3, email: 'a@example.com' },
  'unknown billing': { plan: 'growth', seats: 3, billing: 'weekly', email: 'a@example.com' },
  'email missing': { plan: 'growth', seats: 3 },
  'email with two dots': { plan: 'growth', seats: 3, email: 'a..b@example.com' },
  'notes too long': { plan: 'growth', seats: 3, email: 'a@example.com', notes: 'x'.repeat(501) },
  'in an arguments envelope': { arguments: { plan: 'growth', seats: 3, email: 'a@example.com' } },
  'undeclared keys beside': { plan: 'growth', seats: 3, email: 'a@example.com', contactId: 'c-1' },
};

let dir: string;
let baseline: ServedWorker;
let project: ServedWorker;
// The same production bundle with the development var (and no secret) that only `npm run dev` sets.
let projectAsDev: ServedWorker;
let key: string;
let projectInputs: string[];
let projectScript: string;

const call = async (worker: ServedWorker, body: string, fnKey = key) => {
  const response = await fetch(new URL(`/functions/${QUOTE_FUNCTION}?key=${fnKey}`, worker.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, requestId: response.headers.get('x-request-id'), json: await response.json() };
};

describe('benchmark Workers on workerd', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-functions-bench-test-'));
    const [base, proj] = await Promise.all([
      buildWorker('bench/workers/baseline.ts', {}, join(dir, 'baseline')),
      buildWorker('bench/workers/project.ts', { BENCH_FUNCTIONS: '10' }, join(dir, 'project')),
    ]);
    projectInputs = proj.inputs;
    projectScript = proj.scriptPath;
    baseline = await serveWorker(base.scriptPath);
    project = await serveWorker(proj.scriptPath);
    projectAsDev = await serveWorker(proj.scriptPath, {
      bindings: { AGENT_FUNCTIONS_MODE: 'development', FUNCTIONS_SECRET: '' },
    });
    key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
  }, 120_000);

  afterAll(async () => {
    await baseline?.stop();
    await project?.stop();
    await projectAsDev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers every body with the same status and result in the baseline as in the project', async () => {
    for (const [name, body] of Object.entries(BODIES)) {
      const [ours, theirs] = await Promise.all([
        call(project, JSON.stringify(body)),
        call(baseline, JSON.stringify(body)),
      ]);
      expect({ name, status: theirs.status }).toEqual({ name, status: ours.status });
      if (ours.status === 200) expect(theirs.json).toEqual(ours.json);
      else
        expect(theirs.json.error.details.map((d: { argument: string }) => d.argument)).toEqual(
          ours.json.error.details.map((d: { argument: string }) => d.argument),
        );
    }
  });

  it('refuses a wrong key in both, with a request id', async () => {
    const wrong = await functionKey('another-secret', QUOTE_FUNCTION);
    for (const worker of [project, baseline]) {
      const answer = await call(worker, VALID_BODY, wrong);
      expect(answer.status).toBe(401);
      expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('bundles no optional feature into a project that does not turn it on', () => {
    // The framework as a project gets it: the built package, one module per source file.
    expect(projectInputs).toContain('src/dist/createWorker.js');
    // No optional feature's module: nor the accounts of an accounts file (src/accounts/serve.ts) or
    // the account store, since a Worker of one account keeps only the default of accounts/resolve.ts.
    const optional = projectInputs.filter((file) =>
      /^src\/dist\/(platform\/client\/|openapi|mcp\/|events\/|conversations\/|approval\/|metrics\/|accounts\/(?!resolve\.js))|@modelcontextprotocol|workers-oauth-provider/.test(
        file,
      ),
    );
    expect(optional).toEqual([]);
  });

  it('builds a production bundle without the development mode: keys are checked whatever the vars say', async () => {
    // The Host and Origin check of npm run dev's keyless Worker (src/localSurface.ts) is not in it.
    expect(projectInputs).not.toContain('src/dist/localSurface.js');
    const manifest = await fetch(new URL('/functions', projectAsDev.url));
    expect(manifest.status).toBe(401);
    const keyless = await fetch(new URL(`/functions/${QUOTE_FUNCTION}`, projectAsDev.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: VALID_BODY,
    });
    expect(keyless.status).toBe(503);
    expect(((await keyless.json()) as { error: { code: string } }).error.code).toBe('not_configured');
  });

  it('keeps each definition check and its fact in a production bundle, and drops the words of the fix', async () => {
    // EXPLAINS (src/env.ts): npm test, npm run dev and sync's local Worker tell the whole fix.
    const bundle = await readFile(projectScript, 'utf8');
    expect(bundle).toContain('description is missing or too short.');
    expect(bundle).toContain('must list environment variable names.');
    expect(bundle).not.toContain('say what it does and when the agent should call it');
    expect(bundle).not.toContain('give it a concrete zod type');
  });

  it('measures a short load run as throughput, percentiles and a count of unexpected answers', async () => {
    const url = new URL(`/functions/${QUOTE_FUNCTION}?key=${key}`, baseline.url).href;
    const result = await loadTest({ url, body: INVALID_BODY, expectStatus: 422 }, { connections: 2, seconds: 0.5 });
    expect(result.unexpected).toBe(0);
    expect(result.responses).toBeGreaterThan(0);
    expect(result.requestsPerSecond).toBeGreaterThan(0);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
  }, 30_000);
});
