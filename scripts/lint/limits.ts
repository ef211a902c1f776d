// Limits (the platform's description budget) and names.

import { FUNCTION_NAME } from 'agent-functions/platform';
import { DESCRIPTION_LIMIT } from 'agent-functions/worker';
import { VAGUE_NAMES } from './patterns.ts';
import { findingsFor } from './ruleList.ts';
import type { Finding, LintFunction } from './types.ts';
import { words } from './words.ts';

export const limitRules = (fn: LintFunction): Finding[] => {
  const hit = findingsFor(fn.name);
  const length = fn.description.length;
  if (length > DESCRIPTION_LIMIT) {
    const fix = 'Cut what the model does not need to choose and call it; put detail in what it returns.';
    return [
      hit(
        'description-too-long',
        `${length} characters`,
        `It is ${length} characters, over ${DESCRIPTION_LIMIT}.`,
        fix,
      ),
    ];
  }
  if (length > DESCRIPTION_LIMIT * 0.85) {
    const fix = 'Tighten it before a new parameter pushes it over.';
    return [
      hit('description-near-limit', `${length} characters`, `It is ${length} of ${DESCRIPTION_LIMIT} characters.`, fix),
    ];
  }
  return [];
};

export const nameRules = (fn: LintFunction): Finding[] => {
  const hit = findingsFor(fn.name);
  if (!FUNCTION_NAME.test(fn.name)) {
    const fix = 'Use lower-case snake_case, starting with a letter, at most 64 characters (rename the file).';
    return [hit('name-invalid', fn.name, `The platform refuses the name "${fn.name}".`, fix)];
  }
  const parts = words(fn.name.replace(/_/g, ' '));
  if (parts.length < 2 || parts.every((p) => VAGUE_NAMES.has(p))) {
    const fix = 'Name it verb_object: lookup_order, reserve_table.';
    return [hit('name-vague', fn.name, `"${fn.name}" does not say what it acts on.`, fix)];
  }
  return [];
};
