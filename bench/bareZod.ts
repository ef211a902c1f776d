// Benchmark entry for size and start-up: a Worker that only imports zod and validates one schema,
// the floor under which the framework's share is measured. `BENCH_JITLESS` turns zod's JIT off.
import { z } from 'zod';
import { quoteSchema } from './quoteSchema.ts';

declare const BENCH_JITLESS: boolean;

if (typeof BENCH_JITLESS === 'boolean' && BENCH_JITLESS) z.config({ jitless: true });

const schema = quoteSchema();

export default {
  async fetch(request: Request): Promise<Response> {
    const result = await schema.safeParseAsync(await request.json());
    return Response.json(result.success ? result.data : { error: result.error.issues }, {
      status: result.success ? 200 : 422,
    });
  },
} satisfies ExportedHandler;
