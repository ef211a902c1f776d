// The framework's own test functions (src/test/fixtures/functions/), served the way worker.ts serves
// functions/, MCP included: the core, security and MCP suites call them, so they pass whatever
// functions/ holds (README "Removing the examples").
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createWorker } from '../createWorker.ts';
import type { Env } from '../env.ts';
import { mcpOnDemand } from '../mcp/onDemand.ts';
import { platformFromEnv } from '../platform/client/fromEnv.ts';
import { FIXTURE_FUNCTIONS } from './fixtures/functions/index.ts';
import { through } from './helpers.ts';

export { FIXTURE_FUNCTIONS };

const worker = createWorker({
  functions: FIXTURE_FUNCTIONS,
  platform: platformFromEnv,
  mcp: mcpOnDemand(() => import('../mcp/index.ts')),
});

/** The fixture Worker with the test env and `overrides` over it (a setting unset by giving it `undefined`). */
export const fixtureWith = (overrides: Partial<Env> & Record<string, unknown> = {}) => ({
  fetch: async (request: Request): Promise<Response> => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, { ...(env as Env), ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  },
});

/** The fixture Worker with the test env, as the real entry has it. */
export const fixture = fixtureWith();

export const { send, call } = through(fixture);
