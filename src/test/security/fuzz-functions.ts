// Test-only functions for the fuzz run: schemas of every shape the runtime has to handle, handlers
// that only report what they got. Registered through createRegistry + createWorker in the test.
import { z } from 'zod';
import { defineFunction } from '../../define.ts';

export const recordSchema = z.object({
  name: z.string().min(1).max(50).describe('A name'),
  count: z.int().min(0).max(100).describe('How many'),
  kind: z.enum(['a', 'b']).describe('Which kind'),
  flag: z.boolean().optional().describe('A switch'),
  tags: z.array(z.string().max(20)).max(5).default([]).describe('Labels'),
  when: z.date().optional().describe('A moment'),
  meta: z
    .object({ note: z.string().max(200) })
    .optional()
    .describe('Extra facts'),
});

export const TEST_FUNCTIONS = {
  fuzz_record: defineFunction({
    description: 'Reports what it received. Exercises every parameter type.',
    parameters: recordSchema,
    handler: (args) => ({ received: Object.keys(args).sort() }),
  }),
  fuzz_loose: defineFunction({
    description: 'Reports what it received. Keeps keys the schema does not declare.',
    parameters: z.looseObject({ id: z.string().max(100).describe('An identifier') }),
    handler: (args) => ({ keys: Object.keys(args).length }),
  }),
  fuzz_strict: defineFunction({
    description: 'Reports what it received. Refuses keys the schema does not declare.',
    parameters: z.strictObject({
      n: z.number().describe('A number'),
      list: z.array(z.int()).max(10).optional().describe('Whole numbers'),
    }),
    handler: ({ n }) => ({ n }),
  }),
  fuzz_nested: defineFunction({
    description: 'Reports what it received. Takes nested objects and records.',
    parameters: z.object({
      items: z
        .array(z.object({ sku: z.string().max(40), qty: z.int().min(1).max(99) }))
        .max(20)
        .describe('Order lines'),
      filter: z.record(z.string(), z.string()).optional().describe('Free-form filters'),
    }),
    handler: ({ items }) => ({ lines: items.length }),
  }),
  fuzz_throws: defineFunction({
    description: 'Always fails, quoting secrets in its error, to prove a 500 reveals nothing.',
    parameters: z.object({ reason: z.string().max(100).optional().describe('Why') }),
    handler: (_args, { env }): never => {
      throw new Error(`boom: ${env.FUNCTIONS_SECRET} ${env.PLATFORM_SIGNING_SECRET} ${env.PLATFORM_API_KEY}`);
    },
  }),
  fuzz_logged: defineFunction({
    description: 'Reports what it received. Opted in to argument logging.',
    parameters: z.looseObject({ note: z.string().max(100).describe('A note') }),
    logArguments: true,
    handler: ({ note }) => ({ note }),
  }),
};

export type TestFunctionName = keyof typeof TEST_FUNCTIONS;

/** Valid arguments of each test function (as the model would send them: dates as ISO strings). */
export const VALID_EXAMPLES: Record<TestFunctionName, Record<string, unknown>> = {
  fuzz_record: { name: 'Ada', count: 3, kind: 'a' },
  fuzz_loose: { id: 'order-1' },
  fuzz_strict: { n: 1.5 },
  fuzz_nested: { items: [{ sku: 'SKU-1', qty: 2 }] },
  fuzz_throws: {},
  fuzz_logged: { note: 'logged on purpose' },
};
