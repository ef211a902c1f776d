// The tools the MCP conformance suite calls by name, written as any project writes functions: the
// framework turns their answers and refusals into MCP results, and the work of its `later`
// functions into tasks (the tasks extension's scenarios). A test fixture, never deployed.
import { defineFunction, FunctionError } from 'agent-functions';
import { conversationFeatures } from 'agent-functions/conversations';
import { createWorker, mcpOnDemand } from 'agent-functions/worker';
import { z } from 'zod';

export { CallLedger, DeferredCall } from 'agent-functions/conversations';

/** Waits `ms`, or rejects when `signal` fires (a cancelled task, or a call whose work went on as one). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** A task past 100 ms; a failure is final at once (the suite waits 10 s for a task to end). */
const later = {
  answerWithinMs: 100,
  interim: 'Still working on it; the result follows as a task.',
  message: (result: unknown) => JSON.stringify(result),
  retries: 0,
};

export default createWorker({
  conversations: conversationFeatures,
  functions: {
    greet: defineFunction({
      description: 'Greets someone by name. Call it when the conformance suite asks for a greeting.',
      parameters: z.object({ name: z.string() }),
      effect: 'read',
      handler: ({ name }) => `Hello, ${name}!`,
    }),
    slow_compute: defineFunction({
      description: 'Works for some seconds, then answers. Call it when the conformance suite tests tasks.',
      parameters: z.object({ seconds: z.number().min(0).max(60), label: z.string().optional() }),
      effect: 'read',
      timeoutMs: 30_000,
      handler: async ({ seconds, label }, { signal }) => {
        await pause(seconds * 1000, signal);
        return `Computed ${label ?? 'it'} in ${seconds} s.`;
      },
      later,
    }),
    failing_job: defineFunction({
      description: 'Refuses after a second. Call it when the conformance suite tests a task that fails.',
      parameters: z.object({}),
      effect: 'read',
      handler: async (_args, { signal }) => {
        await pause(1_000, signal);
        throw new FunctionError(422, 'job_failed', 'This job always fails: it tests how a refusal reaches a task.');
      },
      later,
    }),
    protocol_error_job: defineFunction({
      description: 'Breaks after a second. Call it when the conformance suite tests a task that breaks.',
      parameters: z.object({}),
      effect: 'read',
      handler: async (_args, { signal }) => {
        await pause(1_000, signal);
        throw new Error('the job broke');
      },
      later,
    }),
    test_simple_text: defineFunction({
      description: 'Answers with one line of text. Call it when the conformance suite asks for simple text.',
      parameters: z.object({}),
      handler: () => 'This is a simple text response for testing.',
    }),
    test_error_handling: defineFunction({
      description: 'Always refuses, with a message for the model. Call it when the conformance suite tests errors.',
      parameters: z.object({}),
      handler: () => {
        throw new FunctionError(
          422,
          'always_refuses',
          'This tool always refuses: it tests how errors reach the client.',
        );
      },
    }),
  },
  mcp: mcpOnDemand(() => import('agent-functions/mcp')),
});
