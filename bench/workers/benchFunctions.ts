// Generated definitions for the routing and memory benchmarks: the quote function plus filler
// functions, built in code (not files) so one entry can hold 10 or 1,000 of them.
import type { AnyFunctionDefinition } from 'agent-functions';
import { defineFunction } from 'agent-functions';
import { QUOTE_FUNCTION, quote } from './quote.ts';
import { quoteSchema } from './quoteSchema.ts';

/** Name of the i-th filler function. */
export const fillerName = (i: number): string => `filler_${String(i).padStart(4, '0')}`;

/**
 * `count` definitions: the benchmarked quote function and `count - 1` fillers, each with its own
 * schema instance, as `count` separate files would have.
 * @example Object.keys(benchFunctions(3)) // ['quote_seats', 'filler_0001', 'filler_0002']
 */
export const benchFunctions = (count: number): Record<string, AnyFunctionDefinition> => {
  const functions: Record<string, AnyFunctionDefinition> = {
    [QUOTE_FUNCTION]: defineFunction({
      description: 'Quotes a plan for a number of seats. Call it when the customer asks what a plan costs.',
      parameters: quoteSchema(),
      handler: (args) => quote(args),
    }),
  };
  for (let i = 1; i < count; i++) {
    functions[fillerName(i)] = defineFunction({
      description: `Filler function ${i} of the routing benchmark. Never call it.`,
      parameters: quoteSchema(),
      handler: (args) => quote(args),
    });
  }
  return functions;
};
