// Benchmark entry for size and start-up: a Worker that only imports zod, validates one schema and
// runs the same business logic as the project's function (bench/workers/quote.ts), the floor under which
// the framework's share is measured: only the framework differs. `BENCH_JITLESS` turns zod's JIT off.
import { z } from 'zod';
import { quote } from './quote.ts';
import { quoteSchema } from './quoteSchema.ts';

declare const BENCH_JITLESS: boolean;

if (typeof BENCH_JITLESS === 'boolean' && BENCH_JITLESS) z.config({ jitless: true });

const schema = quoteSchema();

export default {
  async fetch(request: Request): Promise<Response> {
    const result = await schema.safeParseAsync(await request.json());
    return Response.json(result.success ? quote(result.data) : { error: result.error.issues }, {
      status: result.success ? 200 : 422,
    });
  },
} satisfies ExportedHandler;
