// agent-functions-cli/lint: the description linter's engine, pure (no I/O), shared by
// `agent-functions lint functions`, sync, the dev console, `npm run eval`, the tests and the bench.
import { checkGolden } from './golden.ts';
import { lintOne } from './rules.ts';
import { confusableSiblings } from './siblings.ts';
import { CATEGORIES, type Finding, type LintFunction, type LintReport, type PromptSet } from './types.ts';

export { createRouter, reachable } from './golden.ts';
export { formatReport } from './report.ts';
export { RULES, type Rule } from './ruleList.ts';
export { CONFUSABLE_AT, confusableSiblings, similarity } from './siblings.ts';
export type {
  Category,
  Finding,
  GoldenCall,
  GoldenPrompts,
  LintFunction,
  LintReport,
  PromptSet,
  Severity,
} from './types.ts';
export { CATEGORIES } from './types.ts';
export { authorText } from './words.ts';

/** More functions than this and common function-calling APIs refuse the set. */
const MAX_TOOLS = 128;

const order = (a: Finding, b: Finding) =>
  CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) ||
  a.function.localeCompare(b.function) ||
  a.rule.localeCompare(b.rule);

/**
 * Every rule, the confusable siblings and (given prompts) the offline golden-prompt check, on the registered form.
 * @example const report = lintFunctions(served, prompts); if (report.errors > 0) process.exitCode = 1;
 */
export const lintFunctions = (functions: LintFunction[], prompts?: PromptSet): LintReport => {
  const findings = [
    ...functions.flatMap(lintOne),
    ...confusableSiblings(functions),
    ...(prompts ? checkGolden(functions, prompts) : []),
  ];
  if (functions.length > MAX_TOOLS) {
    findings.push({
      rule: 'set-too-large',
      severity: 'warning',
      category: 'limits',
      function: '*',
      text: `${functions.length} functions`,
      message: `${functions.length} functions: common function-calling APIs take at most ${MAX_TOOLS}.`,
      fix: 'Merge look-ups that differ only by a parameter, or register fewer functions on this account (sync --only).',
    });
  }
  findings.sort(order);
  const totalCharacters = functions.reduce((sum, fn) => sum + fn.description.length, 0);
  const longest = functions.reduce<LintFunction | undefined>(
    (max, fn) => (max === undefined || fn.description.length > max.description.length ? fn : max),
    undefined,
  );
  return {
    findings,
    functions: functions.length,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    totalCharacters,
    approxTokens: Math.ceil(totalCharacters / 4),
    ...(longest ? { longest: { name: longest.name, characters: longest.description.length } } : {}),
  };
};

/** The findings about one function (the console shows them beside it). */
export const findingsOf = (report: LintReport, name: string): Finding[] =>
  report.findings.filter(
    (f) => f.function === name || (f.rule === 'siblings-confusable' && f.text.includes(` ~ ${name} `)),
  );
