// What the description linter reads and reports. Pure types: the CLI, sync, the dev console, the
// eval and the tests share them through `agent-functions-cli/lint`.
import type { FunctionAnnotations } from 'agent-functions';
import type { JsonSchema } from 'agent-functions/worker';
import type { z } from 'zod';

/** error: fails npm test and sync; warning: shown, never blocks; info: a measurement. */
export type Severity = 'error' | 'warning' | 'info';

/** What a description must carry, in the order the report groups findings. */
export const CATEGORIES = [
  'purpose',
  'when',
  'behaviour',
  'parameters',
  'limits',
  'examples-and-errors',
  'names',
  'siblings',
  'golden',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** One function in its registered form: what sync sends (description with the parameter list, the flat map) and what the manifest adds. */
export interface LintFunction {
  name: string;
  /** The registered description: the author's text, then "Parameters:" and one line per parameter. */
  description: string;
  parameters: Record<string, string>;
  /** The Worker's JSON Schema of the arguments (enums, formats, examples, per-field descriptions). */
  jsonSchema?: JsonSchema;
  annotations?: FunctionAnnotations;
  /** `effect: 'read' | 'write'` when the definition declares it. */
  effect?: string;
  /** The secrets and vars the definition declares (checked against the Env type, not linted). */
  secrets?: string[];
  vars?: string[];
}

/** One problem, with the exact text it refers to and how to fix it. */
export interface Finding {
  /** Stable id, e.g. `when-missing`: docs/descriptions.md explains each. */
  rule: string;
  severity: Severity;
  category: Category;
  function: string;
  parameter?: string;
  /** The text the finding is about, quoted from what the model reads (or from a golden prompt). */
  text: string;
  message: string;
  fix: string;
}

/** One utterance that should call the function, with the arguments the model should pass. */
export interface GoldenCall<A = Record<string, unknown>> {
  /** What the customer says. */
  say: string;
  /** Argument values the call must carry (a subset; leave out what the prompt does not say). */
  args?: A;
  /** Earlier in the conversation (what the agent already knows, e.g. a slot listed by another function). */
  context?: string;
}

/**
 * Golden prompts of one function, in `test/functions/<name>.prompts.ts`, beside its test (docs/descriptions.md).
 * @example export default { calls: [{ say: 'Where is my order 10452?', args: { orderNumber: '10452' } }], not: ['Are you open on Sunday?'] } satisfies GoldenPrompts<typeof getOrderStatus>;
 */
export interface GoldenPrompts<
  F extends { parameters: z.ZodType } = { parameters: z.ZodType<Record<string, unknown>> },
> {
  calls: GoldenCall<Partial<z.input<F['parameters']>>>[];
  /** Utterances that must not call it (most often: ones a sibling should take). */
  not?: string[];
}

/** Golden prompts by function name, as loaded from test/functions/*.prompts.ts. */
export type PromptSet = Record<string, GoldenPrompts>;

/** The whole check: every finding and the set's size. */
export interface LintReport {
  findings: Finding[];
  functions: number;
  errors: number;
  warnings: number;
  /** Characters of every registered description together (what the model reads on every turn). */
  totalCharacters: number;
  /** The same in tokens, roughly (characters / 4). */
  approxTokens: number;
  longest?: { name: string; characters: number };
}
