// Every per-function rule on one function's registered form.
import { limitRules, nameRules } from './limits.ts';
import { parameterRules } from './parameters.ts';
import { behaviourRules, purposeRules, whenRules } from './purpose.ts';
import type { Finding, LintFunction } from './types.ts';
import { authorText } from './words.ts';

/** The findings of every per-function rule; only `placeholder` while the scaffold's text is there. */
export const lintOne = (fn: LintFunction): Finding[] => {
  const own = authorText(fn.description);
  const purpose = purposeRules(fn, own);
  if (purpose.some((f) => f.rule === 'placeholder')) return purpose;
  return [
    ...purpose,
    ...whenRules(fn, own),
    ...behaviourRules(fn, own),
    ...parameterRules(fn),
    ...limitRules(fn),
    ...nameRules(fn),
  ];
};
