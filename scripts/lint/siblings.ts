// Confusable siblings: two functions whose descriptions and parameters are so alike that the model
// may pick either, unless one description names the other as the alternative.
import { finding } from './ruleList.ts';
import type { Finding, LintFunction } from './types.ts';
import { authorText, jaccard, terms } from './words.ts';

/** From this similarity on (0..1), a pair must be told apart. */
export const CONFUSABLE_AT = 0.3;
/** ...and only when their descriptions alone are this alike: the same parameters never make a pair by themselves. */
const DESCRIPTIONS_ALIKE_AT = 0.2;

// Words every description of a customer-facing function uses: they tell nothing apart.
const COMMON = new Set(['call', 'customer', 'agent', 'use', 'ask', 'say', 'give', 'tell', 'function']);

const descriptionTerms = (fn: LintFunction): Set<string> =>
  new Set([...terms(authorText(fn.description))].filter((t) => !COMMON.has(t)));

/** How alike two functions read to the model: mostly their descriptions, partly their parameter names (0..1). */
export const similarity = (
  a: LintFunction,
  b: LintFunction,
  cache: Map<LintFunction, Set<string>> = new Map(),
): number => {
  const of = (fn: LintFunction) => {
    const known = cache.get(fn);
    if (known) return known;
    const t = descriptionTerms(fn);
    cache.set(fn, t);
    return t;
  };
  const params = jaccard(new Set(Object.keys(a.parameters)), new Set(Object.keys(b.parameters)));
  const described = jaccard(of(a), of(b));
  return described < DESCRIPTIONS_ALIKE_AT ? described : 0.7 * described + 0.3 * params;
};

/** Whether `fn`'s own description names `other` (its exact name, as a word). */
export const names = (fn: LintFunction, other: string): boolean =>
  new RegExp(`(^|[^a-z0-9_])${other}($|[^a-z0-9_])`).test(authorText(fn.description));

/** Every pair at or over CONFUSABLE_AT that neither description resolves, as one finding on each pair. */
export const confusableSiblings = (functions: LintFunction[]): Finding[] => {
  const out: Finding[] = [];
  const cache = new Map<LintFunction, Set<string>>();
  for (let i = 0; i < functions.length; i++) {
    for (let j = i + 1; j < functions.length; j++) {
      const a = functions[i] as LintFunction;
      const b = functions[j] as LintFunction;
      const score = similarity(a, b, cache);
      if (score < CONFUSABLE_AT || names(a, b.name) || names(b, a.name)) continue;
      const shared = [...(cache.get(a) ?? [])].filter((t) => cache.get(b)?.has(t));
      out.push(
        finding(
          'siblings-confusable',
          a.name,
          `${a.name} ~ ${b.name} (${score.toFixed(2)}; shared: ${shared.slice(0, 8).join(', ')})`,
          `${a.name} and ${b.name} read alike, and neither names the other as the alternative.`,
          `Say in one of them when to use the other: "To change an existing booking, use ${b.name}."`,
        ),
      );
    }
  }
  return out;
};
