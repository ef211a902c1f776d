// The framework's own test functions (test/fixtures/functions/), served the way worker.ts serves
// functions/, MCP included: the core, security and MCP suites call them, so they pass whatever
// functions/ holds (README "Removing the examples").
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Env } from '../../src/env.ts';
import { platformFromEnv } from '../../src/platform/fromEnv.ts';
import { createWorker } from '../../src/worker.ts';
import cancel_plan from '../fixtures/functions/cancel_plan.ts';
import quote_plan from '../fixtures/functions/quote_plan.ts';
import tell_time from '../fixtures/functions/tell_time.ts';
import { through } from './helpers.ts';

/** The fixture functions by name, as generated/functions.ts lists a project's. */
export const FIXTURE_FUNCTIONS = { cancel_plan, quote_plan, tell_time };

const worker = createWorker({
  functions: FIXTURE_FUNCTIONS,
  platform: platformFromEnv,
  mcp: () => import('../../src/mcp/index.ts'),
});

/** The fixture Worker with the test env, as the real entry has it. */
export const fixture = {
  fetch: async (request: Request): Promise<Response> => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, env as Env, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  },
};

export const { send, call } = through(fixture);
