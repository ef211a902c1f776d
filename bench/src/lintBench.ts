// Part 5: the offline description check (agent-functions lint functions without the Worker start):
// 100 generated functions, each with golden prompts, translated to their registered form and checked
// (rules, confusable siblings, golden prompts) by the CLI's own engine.
import type { AnyFunctionDefinition } from 'agent-functions';
import { describeFunction } from 'agent-functions/worker';
import { z } from 'zod';
import { lintFunctions } from '../../scripts/lint/index.ts';
import type { LintFunction, PromptSet } from '../../scripts/lint/types.ts';
import { median } from './stats.ts';

/** One run of the check: how long it took and what it found. */
export interface LintBenchResult {
  functions: number;
  prompts: number;
  runs: number;
  medianMs: number;
  maxMs: number;
  errors: number;
  warnings: number;
}

const VERBS: [string, string][] = [
  ['looks up', 'where it stands and what happens next'],
  ['books', 'a new slot the customer chose'],
  ['cancels', 'for good, with a refund if one is due'],
  ['quotes', 'its price with taxes and discounts'],
  ['lists', 'every open one on the account'],
  ['sends', 'a copy by email to the address on file'],
  ['saves', "with the customer's preferences for next time"],
  ['checks', 'whether it is still valid today'],
  ['renews', 'for another period at the current price'],
  ['transfers', 'to another person the customer names'],
];
const THINGS = ['order', 'invoice', 'table', 'room', 'ticket', 'parcel', 'voucher', 'membership', 'class', 'repair'];

/** `count` functions (verb × thing) with their golden prompts, as a project of that size would have them. */
export const generatedProject = (
  count: number,
): { definitions: Record<string, AnyFunctionDefinition>; prompts: PromptSet } => {
  const definitions: Record<string, AnyFunctionDefinition> = {};
  const prompts: PromptSet = {};
  for (let i = 0; i < count; i++) {
    const [verb, what] = VERBS[i % VERBS.length] as [string, string];
    const base = verb.replace(/s$/, '').replace(/ up$/, '');
    const thing = `${THINGS[Math.floor(i / VERBS.length) % THINGS.length]}${i >= 100 ? i : ''}`;
    const name = `${verb.split(' ')[0]?.replace(/s$/, '')}_${thing}`;
    const reference = `${thing}Reference`;
    definitions[name] = {
      description: `${verb[0]?.toUpperCase()}${verb.slice(1)} the customer's ${thing}: ${what}. Call it when the customer asks to ${base} their ${thing}. Not for other ${thing} requests.`,
      parameters: z.object({
        [reference]: z.string().max(20).describe(`The ${thing} reference the customer was given, like "R-1042"`),
      }),
      annotations: ['looks up', 'lists', 'checks', 'quotes'].includes(verb)
        ? { readOnlyHint: true }
        : { readOnlyHint: false, destructiveHint: verb === 'cancels', idempotentHint: true },
      handler: () => null,
    };
    prompts[name] = {
      calls: [
        { say: `Please ${base} my ${thing} R-1042`, args: { [reference]: 'R-1042' } },
        { say: `I want to ${base} the ${thing}, ${what}` },
      ],
      not: ['What is the weather like?'],
    };
  }
  return { definitions, prompts };
};

const registered = (definitions: Record<string, AnyFunctionDefinition>): LintFunction[] =>
  Object.entries(definitions).map(([name, definition]) => {
    const m = describeFunction(name, definition);
    return {
      name,
      description: m.description,
      parameters: m.parameters,
      jsonSchema: m.jsonSchema,
      annotations: m.annotations,
    };
  });

/**
 * Translates and checks `count` functions `runs` times; the median is the number to quote.
 * @example await measureLint(100, 5) // { medianMs: 180, ... }
 */
export const measureLint = async (count: number, runs: number): Promise<LintBenchResult> => {
  const { definitions, prompts } = generatedProject(count);
  const times: number[] = [];
  let last = lintFunctions([], {});
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = lintFunctions(registered(definitions), prompts);
    times.push(performance.now() - started);
  }
  const promptCount = Object.values(prompts).reduce((sum, p) => sum + p.calls.length + (p.not?.length ?? 0), 0);
  return {
    functions: count,
    prompts: promptCount,
    runs,
    medianMs: median(times),
    maxMs: Math.max(...times),
    errors: last.errors,
    warnings: last.warnings,
  };
};
