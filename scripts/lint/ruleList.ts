// The rule list: a stable id, the category of what a description must carry, a severity and what
// it checks. docs/descriptions.md explains each; `lint functions --json` findings carry the id.
import { DESCRIPTION_LIMIT } from 'agent-functions/worker';
import type { Category, Finding, Severity } from './types.ts';

/** One rule as the docs and `--json` list it. */
export interface Rule {
  id: string;
  category: Category;
  severity: Severity;
  /** What it checks, in a line. */
  checks: string;
}

const E = 'error';
const W = 'warning';
const table: [string, Category, Severity, string][] = [
  ['placeholder', 'purpose', E, "the scaffold's placeholder description is still there"],
  ['purpose-restates-name', 'purpose', E, 'the first sentence says no more than the name'],
  ['purpose-off-name', 'purpose', W, 'the first sentence shares no word with the name, so one of them misleads'],
  ['purpose-vague', 'purpose', W, 'the first sentence opens with a word that says nothing (Handles, Manages…)'],
  ['when-missing', 'when', E, 'no sentence says when to call it ("Call it when the customer…")'],
  ['when-not-missing', 'when', W, 'no sentence says when not to, or what to use instead'],
  [
    'write-unstated',
    'behaviour',
    E,
    'a write (effect "write" or readOnlyHint false) whose description names no change',
  ],
  ['effect-conflict', 'behaviour', E, 'effect, the MCP annotations and the description disagree on what it changes'],
  ['annotations-missing', 'behaviour', W, 'neither effect nor annotations say whether it reads or writes'],
  ['repeat-unstated', 'behaviour', W, 'a write that is not idempotent does not say what a second call does'],
  ['param-undescribed', 'parameters', E, 'a parameter has no description (.describe())'],
  ['param-restates-name', 'parameters', W, "a parameter's description says no more than its name"],
  [
    'param-unconstrained',
    'parameters',
    W,
    'a string or number states no constraint (length, range, format, values) and no example',
  ],
  [
    'choices-in-prose',
    'parameters',
    W,
    'a parameter names its values in words ("urgent" only when…) but is not an enum',
  ],
  [
    'format-unexampled',
    'parameters',
    W,
    'a phone, date, reference or code shows no format and no example in the registered text',
  ],
  [
    'description-too-long',
    'limits',
    E,
    `the registered description (parameter list included) is over ${DESCRIPTION_LIMIT} characters`,
  ],
  ['description-near-limit', 'limits', W, `the registered description is over 85% of ${DESCRIPTION_LIMIT} characters`],
  ['set-too-large', 'limits', W, 'more than 128 functions, the tool limit of common function-calling APIs'],
  [
    'error-no-example',
    'examples-and-errors',
    W,
    'a 422 for this parameter could not show an example (a pattern, no examples)',
  ],
  ['name-invalid', 'names', E, 'a function name the platform refuses (lower-case snake_case, 64 characters)'],
  ['parameter-name-invalid', 'names', E, 'a parameter name that is not a plain identifier'],
  ['name-vague', 'names', W, 'a one-word or generic function name (verb_object reads best)'],
  ['siblings-confusable', 'siblings', E, 'two functions read alike, and neither names the other as the alternative'],
  [
    'golden-missing',
    'golden',
    W,
    'no golden prompts (test/functions/<name>.prompts.ts), or none that should not call it',
  ],
  ['golden-top1', 'golden', E, "a prompt's words point to another function's description first"],
  ['golden-negative', 'golden', E, 'a prompt that should not call the function points to it first'],
  [
    'golden-args-unreachable',
    'golden',
    E,
    "an expected argument cannot be read from the prompt with the schema's hints",
  ],
  ['golden-invalid', 'golden', E, 'a prompt file names no served function, or an argument the function does not have'],
];

export const RULES: readonly Rule[] = table.map(([id, category, severity, checks]) => ({
  id,
  category,
  severity,
  checks,
}));

const RULE_BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

/** A finding of rule `id`, its category and severity from the rule list. */
export const finding = (
  id: string,
  fn: string,
  text: string,
  message: string,
  fix: string,
  parameter?: string,
): Finding => {
  const rule = RULE_BY_ID.get(id);
  if (!rule) throw new Error(`No rule "${id}".`);
  const where = parameter ? { parameter } : {};
  return { rule: id, severity: rule.severity, category: rule.category, function: fn, ...where, text, message, fix };
};

/** The finder of one function: `hit(id, text, message, fix, parameter?)`. */
export const findingsFor =
  (fn: string) =>
  (id: string, text: string, message: string, fix: string, parameter?: string): Finding =>
    finding(id, fn, text, message, fix, parameter);

/** A long text cut for quoting. */
export const clip = (text: string, max = 160): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
