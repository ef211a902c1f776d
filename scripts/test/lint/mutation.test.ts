// The rules bite: weaken the descriptions of the linter's fixture project (registered.ts) the ways
// descriptions go wrong, and each weakening must be caught by some rule or golden prompt that was
// silent before. It never reads the project's functions/: a user's function is judged by
// `npm run lint:functions`, not by the framework's tests.

import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authorText, lintFunctions } from '../../lint/index.ts';
import { WHEN } from '../../lint/patterns.ts';
import type { LintFunction, PromptSet } from '../../lint/types.ts';
import { sentences } from '../../lint/words.ts';
import { fixtureProject, registered } from './registered.ts';

/** The registered form of `fn` with another author's text (the parameter list as the Worker writes it). */
const withText = (fn: LintFunction, text: string): LintFunction => ({
  ...fn,
  description: `${text}${fn.description.slice(authorText(fn.description).length)}`,
});

/** The registered form of `fn` with `key` a plain string (same description and default): its enum's values gone. */
const withoutValues = (fn: LintFunction, key: string): LintFunction => {
  const { enum: _values, ...rest } = fn.jsonSchema?.properties?.[key] ?? {};
  const plain = z.string().describe(rest.description ?? '');
  const field = rest.default === undefined ? plain : plain.default(String(rest.default));
  const probe = registered(fn.name, {
    description: 'Probe of one parameter line.',
    parameters: z.object({ [key]: field }),
  });
  const line = (of: LintFunction) => of.description.split('\n').find((l) => l.startsWith(`- ${key} (`)) ?? '';
  return {
    ...fn,
    description: fn.description.replace(line(fn), line(probe)),
    jsonSchema: { ...fn.jsonSchema, properties: { ...fn.jsonSchema?.properties, [key]: rest } },
  };
};

const counts = (functions: LintFunction[], prompts: PromptSet) => {
  const out = new Map<string, number>();
  for (const f of lintFunctions(functions, prompts).findings) {
    const key = `${f.rule} ${f.function}${f.parameter ? `.${f.parameter}` : ''}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
};

interface Mutation {
  name: string;
  apply(set: LintFunction[]): LintFunction[];
}

let examples: LintFunction[];
let prompts: PromptSet;
let baseline: Map<string, number>;

const mutations = (): Mutation[] => {
  const out: Mutation[] = [];
  const replace = (set: LintFunction[], changed: LintFunction[]) =>
    set.map((fn) => changed.find((c) => c.name === fn.name) ?? fn);
  for (const fn of examples) {
    const own = authorText(fn.description);
    out.push({
      name: `drop the "when" sentence of ${fn.name}`,
      apply: (set) =>
        replace(set, [
          withText(
            fn,
            sentences(own)
              .filter((s) => !WHEN.test(s))
              .join(' '),
          ),
        ]),
    });
    for (const [key, property] of Object.entries(fn.jsonSchema?.properties ?? {})) {
      if (!property.enum) continue;
      out.push({
        name: `remove the values of ${fn.name}.${key}`,
        apply: (set) => replace(set, [withoutValues(fn, key)]),
      });
    }
  }
  for (const [i, a] of examples.entries()) {
    for (const b of examples.slice(i + 1)) {
      const [aFirst, ...aRest] = sentences(authorText(a.description));
      const [bFirst, ...bRest] = sentences(authorText(b.description));
      out.push({
        name: `swap the purposes of ${a.name} and ${b.name}`,
        apply: (set) =>
          replace(set, [withText(a, [bFirst, ...aRest].join(' ')), withText(b, [aFirst, ...bRest].join(' '))]),
      });
    }
  }
  return out;
};

describe('the rules bite (mutation test on the fixture project)', () => {
  beforeAll(() => {
    ({ functions: examples, prompts } = fixtureProject());
    baseline = counts(examples, prompts);
  });

  it('starts from a set with no error', () => {
    expect(lintFunctions(examples, prompts).errors).toBe(0);
  });

  it('rebuilds a parameter line without its values, as the Worker writes a plain string', () => {
    const [fn, key] =
      examples.flatMap((f) =>
        Object.entries(f.jsonSchema?.properties ?? {})
          .filter(([, p]) => p.enum)
          .map(([k]) => [f, k] as const),
      )[0] ?? [];
    if (!fn || !key) return;
    const line = (f: LintFunction) => f.description.split('\n').find((l) => l.startsWith(`- ${key} (`)) ?? '';
    expect(line(fn)).toContain('One of ');
    expect(line(withoutValues(fn, key))).not.toContain('One of ');
    expect(line(withoutValues(fn, key))).toContain(fn.jsonSchema?.properties?.[key]?.description ?? '');
  });

  it('catches every mutation: a dropped "when", swapped purposes, an enum without its values', () => {
    const all = mutations();
    const missed = all
      .map((m) => {
        const after = counts(m.apply(examples), prompts);
        const caughtBy = [...after].filter(([key, n]) => n > (baseline.get(key) ?? 0)).map(([key]) => key);
        return { name: m.name, caughtBy };
      })
      .filter((m) => m.caughtBy.length === 0)
      .map((m) => m.name);
    expect(all.length).toBeGreaterThanOrEqual(examples.length + (examples.length * (examples.length - 1)) / 2);
    expect(missed).toEqual([]);
  });
});
