// What `npm run new -- <name>` writes. Formatted as biome formats it, with the name only where no
// line can grow past the width, so a generated file passes `npm test` whatever the name.

import { PLACEHOLDER_DESCRIPTION } from 'agent-functions/worker';

export { PLACEHOLDER_DESCRIPTION };

/** functions/<name>.ts: a working function to edit into the real one. */
export const functionTemplate = (
  name: string,
): string => `import { defineFunction, FunctionError } from 'agent-functions';
import { z } from 'zod';

// Created by \`npm run new -- ${name}\`. The file name is the function's name on the platform.
// Fill in the form: what it does and when to call it, its arguments, the handler. The runtime
// checks the key, parses and validates the arguments and turns errors into answers: the handler
// only does the work. README "Write your first function" walks through it. Reading a new secret?
// Declare it (secrets: ['NAME']), add NAME= to .dev.vars.example, then npm run generate (Env type).
export default defineFunction({
  description:
    '${PLACEHOLDER_DESCRIPTION}',
  parameters: z.object({
    question: z.string().trim().min(1).max(500).describe("The customer's question, in their own words"),
  }),
  // A look-up: it runs on every call. Make it 'write' if it changes anything (books, sends, saves):
  // then a repeat of the same call in a conversation gets the first answer and does not run again
  // (docs/functions.md, "Calls that repeat").
  effect: 'read',
  handler: ({ question }, { log }) => {
    if (question.toLowerCase().includes('refund')) {
      // A refusal the model can act on: status, stable code, what to tell the customer.
      throw new FunctionError(409, 'not_here', 'Refunds are handled by a colleague: offer to pass the customer on.');
    }
    log.info('answered');
    return { summary: \`You asked: "\${question}". Replace this with the answer the agent should give.\` };
  },
});
`;

/** test/functions/<name>.test.ts: runs the function in workerd, as the platform calls it. */
export const testTemplate = (name: string): string => `import { call, errorOf } from 'agent-functions/testing';
import { describe, expect, it } from 'vitest';

const NAME = '${name}';

describe(NAME, () => {
  it('answers with a summary the agent can read aloud', async () => {
    const response = await call(NAME, { question: 'When do you open?' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { summary: string };
    expect(body.summary).toContain('When do you open?');
  });

  it('refuses what it cannot do with a message for the model', async () => {
    const response = await call(NAME, { question: 'I want a refund' });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('not_here');
  });

  it('answers 422 naming "question" when it is missing', async () => {
    const response = await call(NAME, {});
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument: 'question' })]);
  });
});
`;

/** events/<type>.ts: a working handler of one event type to edit into the real one. */
export const eventTemplate = (type: string): string => `import { defineEvent } from 'agent-functions';
import { z } from 'zod';

// Created by \`npm run new -- --event ${type}\`. The file name is the event type the platform sends.
// The platform shows no payloads, so keep the schema loose: name only the fields the handler reads.
// Throwing retries the delivery later; wrap work that must not happen twice in \`once\`, keyed by
// a business id (docs/events.md).
export default defineEvent({
  type: '${type}',
  payload: z.looseObject({
    id: z.string().optional(),
    data: z.looseObject({}).default({}),
  }),
  handler: async ({ data }, { log, once, deliveryId }) => {
    const outcome = await once(\`handled:\${deliveryId}\`, async () => {
      log.info('received', { fields: Object.keys(data) });
    });
    log.info(outcome === 'ran' ? 'handled' : 'already_handled');
  },
});
`;

/** test/events/<type>.test.ts: runs the handler through the real queue consumer in workerd. */
export const eventTestTemplate = (
  type: string,
): string => `import { eventsWorker, queued } from 'agent-functions/testing';
import { describe, expect, it } from 'vitest';
import { events } from '../../generated/events.ts';

const TYPE = '${type}';
const worker = eventsWorker(events ?? {});

describe(TYPE, () => {
  it('handles a delivery and acknowledges it', async () => {
    const { result, logged } = await worker.consumeLogged([queued(TYPE, { example: true })]);
    expect(result.explicitAcks).toEqual(['msg-0']);
    expect(result.retryMessages).toEqual([]);
    expect(logged).toContain('handled');
  });

  it('acknowledges a repeat of the same delivery without handling it again', async () => {
    const delivery = queued(TYPE, { example: true });
    await worker.consume([delivery]);
    const { result, logged } = await worker.consumeLogged([delivery]);
    expect(result.explicitAcks).toEqual(['msg-0']);
    expect(logged).toContain('event_duplicate');
    expect(logged).not.toContain('handled');
  });
});
`;
