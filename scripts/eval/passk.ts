// pass^k: a prompt passes only when all k trials pass (a model that is right two times in three
// fails it), averaged over a function's prompts. Also pass@1, the share of single trials passed.
import { squash } from '../lint/words.ts';
import type { ModelChoice } from './model.ts';

/** Whether the model's value for an argument is the expected one (strings compared by letters and digits). */
export const sameValue = (expected: unknown, got: unknown): boolean => {
  if (typeof expected === 'string' && typeof got === 'string') return squash(expected) === squash(got);
  if (typeof expected === 'number' && typeof got === 'string') return Number(got) === expected;
  return JSON.stringify(expected) === JSON.stringify(got);
};

/** A positive trial: the function was called first, with every expected argument. */
export const calledAsExpected = (
  name: string,
  expected: Record<string, unknown> | undefined,
  choice: ModelChoice,
): boolean =>
  choice.name === name && Object.entries(expected ?? {}).every(([key, value]) => sameValue(value, choice.args?.[key]));

/** One prompt's k trials. */
export interface PromptResult {
  say: string;
  kind: 'call' | 'not';
  passed: number;
  trials: number;
  /** What the model did on the first failed trial. */
  failure?: ModelChoice;
}

/** One function's score. */
export interface FunctionScore {
  name: string;
  prompts: PromptResult[];
  /** Share of prompts whose every trial passed. */
  passK: number;
  /** Share of all trials passed. */
  pass1: number;
}

/** Scores a function from its prompts' results. */
export const scoreOf = (name: string, prompts: PromptResult[]): FunctionScore => {
  const trials = prompts.reduce((sum, p) => sum + p.trials, 0);
  return {
    name,
    prompts,
    passK: prompts.length ? prompts.filter((p) => p.passed === p.trials).length / prompts.length : 0,
    pass1: trials ? prompts.reduce((sum, p) => sum + p.passed, 0) / trials : 0,
  };
};
