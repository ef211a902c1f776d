// Benchmark entry: the hand-written baseline validating with the same zod schema as the project
// (safeParseAsync, as src/args.ts does), so the invocation table can split the project's extra cost
// into zod's part (this Worker vs the baseline) and the framework's (the project vs this Worker).
import { type BaselineEnv, createBaselineWorker } from './baselineWorker.ts';
import type { QuoteArgs } from './quote.ts';
import { quoteSchema } from './quoteSchema.ts';

const schema = quoteSchema();

export default createBaselineWorker(async (raw) => {
  const result = await schema.safeParseAsync(raw);
  if (result.success) return { args: result.data as QuoteArgs };
  return {
    problems: result.error.issues.map((issue) => ({
      argument: issue.path.map(String).join('.'),
      problem: `"${issue.path.map(String).join('.')}": ${issue.message}`,
    })),
  };
}) satisfies ExportedHandler<BaselineEnv>;
