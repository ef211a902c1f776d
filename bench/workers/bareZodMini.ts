// Benchmark entry for size and start-up: bench/workers/bareZod.ts with zod/mini, zod's tree-shakable API,
// to see what zod itself costs at start-up when only the parts in use are bundled.
import * as z from 'zod/mini';
import { BILLING, NOTES_MAX, PLANS, SEATS } from './quote.ts';

const schema = z.object({
  plan: z.enum(PLANS),
  seats: z.int().check(z.minimum(SEATS.min), z.maximum(SEATS.max)),
  billing: z._default(z.enum(BILLING), 'monthly'),
  email: z.email(),
  notes: z.optional(z.string().check(z.maxLength(NOTES_MAX))),
});

export default {
  async fetch(request: Request): Promise<Response> {
    const result = await z.safeParseAsync(schema, await request.json());
    return Response.json(result.success ? result.data : { error: result.error.issues }, {
      status: result.success ? 200 : 422,
    });
  },
} satisfies ExportedHandler;
