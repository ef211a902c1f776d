// The offline golden-prompt check: deterministic, no model. Each description is a bag of its words
// weighted by how rare they are across the set; a prompt must point to its own function first, a
// negative must not point to it, and each expected argument must be reachable from what was said.
import type { JsonSchema } from 'agent-functions/worker';
import { OTHER_CASE } from './patterns.ts';
import { finding } from './ruleList.ts';
import type { Finding, GoldenCall, LintFunction, PromptSet } from './types.ts';
import { authorText, sentences, squash, terms, words } from './words.ts';

/** The words the model has to choose by, each with its weight: the name's count double (the model reads it first), then the author's description, each parameter's description and enum values. */
const documentOf = (fn: LintFunction): Map<string, number> => {
  const params = Object.values(fn.jsonSchema?.properties ?? {}).flatMap((p) => [
    p.description ?? '',
    ...(p.enum ?? []).map((v) => String(v).replace(/_/g, ' ')),
  ]);
  // A "when not" sentence names the other case: its words belong to the alternative, not to this function.
  const own = sentences(authorText(fn.description)).filter((s) => !OTHER_CASE.test(s));
  const doc = new Map([...terms([...own, ...params].join(' '))].map((t) => [t, 1]));
  for (const t of terms(fn.name.replace(/_/g, ' '))) doc.set(t, 2);
  return doc;
};

/** What a customer said, as terms: addresses and links out (their parts are not words about the task). */
const saidTerms = (text: string): Set<string> => terms(text.replace(/\S+@\S+|https?:\/\/\S+/g, ' '));

/** Scores prompts against a set of functions. */
export interface Router {
  /** Each function's score for `text`, highest first. */
  rank(text: string): { name: string; score: number; matched: string[] }[];
  document(name: string): Map<string, number> | undefined;
}

/** A router over `functions`: a prompt's score for a function is the summed rarity of the words they share. */
export const createRouter = (functions: LintFunction[]): Router => {
  const documents = new Map(functions.map((fn) => [fn.name, documentOf(fn)]));
  const df = new Map<string, number>();
  for (const doc of documents.values()) for (const t of doc.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = documents.size;
  const idf = (t: string) => Math.log(1 + n / (df.get(t) ?? n));
  return {
    rank(text) {
      const said = saidTerms(text);
      return [...documents]
        .map(([name, doc]) => {
          const matched = [...said].filter((t) => doc.has(t));
          return { name, matched, score: matched.reduce((sum, t) => sum + idf(t) * (doc.get(t) ?? 0), 0) };
        })
        .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    },
    document: (name) => documents.get(name),
  };
};

const NUMBER_WORDS =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  );
const TENS: Record<string, number> = {
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1000,
};

const numbersIn = (text: string): Set<number> => {
  const found = new Set<number>();
  for (const m of text.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/\d+(\.\d+)?/g)) found.add(Number(m[0]));
  for (const w of words(text)) {
    const i = NUMBER_WORDS.indexOf(w);
    if (i >= 0) found.add(i);
    if (TENS[w] !== undefined) found.add(TENS[w]);
  }
  return found;
};

const core = (p: JsonSchema | undefined): JsonSchema | undefined =>
  (p?.anyOf ?? p?.oneOf ?? []).find((m) => m.type !== 'null') ?? p;

/** Whether the model can get `value` from `text` with what the schema says of the parameter. */
export const reachable = (value: unknown, schema: JsonSchema | undefined, text: string): boolean => {
  const p = core(schema);
  if (value === undefined || value === null || typeof value === 'boolean') return true;
  if (JSON.stringify(value) === JSON.stringify(schema?.default ?? p?.default)) return true;
  if (typeof value === 'number') return numbersIn(text).has(value);
  if (Array.isArray(value)) return value.every((v) => reachable(v, p?.items, text));
  if (typeof value === 'object') {
    return Object.entries(value).every(([k, v]) => reachable(v, p?.properties?.[k], text));
  }
  const s = String(value);
  if (squash(s) && squash(text).includes(squash(s))) return true;
  if (p?.enum?.includes(s)) {
    const said = terms(text);
    const own = terms(s.replace(/_/g, ' '));
    if (own.size > 0 && [...own].every((t) => said.has(t))) return true;
    // The parameter's description ties the value to words: '"urgent" only when waiting would harm'.
    const clause = (p.description ?? schema?.description ?? '')
      .split(/[.;,]/)
      .find((c) => c.includes(`"${s}"`) || c.includes(`'${s}'`));
    if (clause && [...terms(clause.replace(s, ''))].some((t) => said.has(t))) return true;
  }
  return false;
};

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

const checkCall = (fn: LintFunction, call: GoldenCall, router: Router): Finding[] => {
  const out: Finding[] = [];
  const ranked = router.rank(call.say);
  const own = ranked.find((r) => r.name === fn.name);
  const rival = ranked.find((r) => r.name !== fn.name);
  if (!own || own.score === 0 || (rival && rival.score >= own.score)) {
    const missing = [...saidTerms(call.say)].filter((t) => !router.document(fn.name)?.has(t));
    out.push(
      finding(
        'golden-top1',
        fn.name,
        clip(call.say),
        own && own.score > 0
          ? `This prompt points to ${rival?.name} first (${rival?.score.toFixed(2)}, words: ${rival?.matched.join(', ')}) before ${fn.name} (${own.score.toFixed(2)}).`
          : `None of this prompt's words are in ${fn.name}'s description.`,
        `Say it the customer's way in ${fn.name}'s description (words it lacks: ${missing.slice(0, 6).join(', ') || '—'})${rival && rival.score > 0 ? `, or tell it apart from ${rival.name} ("for …, use ${rival.name}")` : ''}.`,
      ),
    );
  }
  const properties = fn.jsonSchema?.properties ?? {};
  const text = `${call.say} ${call.context ?? ''}`;
  for (const [key, value] of Object.entries(call.args ?? {})) {
    if (!Object.hasOwn(fn.parameters, key)) {
      out.push(
        finding(
          'golden-invalid',
          fn.name,
          clip(call.say),
          `The prompt expects an argument "${key}" that ${fn.name} does not have.`,
          `Use one of: ${Object.keys(fn.parameters).join(', ')}.`,
          key,
        ),
      );
      continue;
    }
    if (!reachable(value, properties[key], text)) {
      out.push(
        finding(
          'golden-args-unreachable',
          fn.name,
          clip(call.say),
          `The expected ${key} ${JSON.stringify(value)} cannot be read from the prompt${call.context ? ' or its context' : ''} with what the schema says of ${key}.`,
          `Say in ${key}'s description how to get it from what the customer says (the values, a format, an example), or put the source in the prompt's context.`,
          key,
        ),
      );
    }
  }
  return out;
};

/** The suffix of a golden-prompts file. */
export const PROMPTS_SUFFIX = '.prompts.ts';
/** Where golden prompts live, relative to the project: beside the functions' tests (docs/descriptions.md). */
export const PROMPTS_DIR = 'test/functions';

/** Where the golden prompts of function `name` live, relative to the project. */
export const promptsPath = (name: string): string => `${PROMPTS_DIR}/${name}${PROMPTS_SUFFIX}`;

/** The offline check of every function's golden prompts against the whole set. */
export const checkGolden = (
  functions: LintFunction[],
  prompts: PromptSet,
  router: Router = createRouter(functions),
): Finding[] => {
  const out: Finding[] = [];
  const byName = new Map(functions.map((fn) => [fn.name, fn]));
  for (const name of Object.keys(prompts)) {
    if (!byName.has(name)) {
      out.push(
        finding(
          'golden-invalid',
          name,
          promptsPath(name),
          `Golden prompts for "${name}", which is not served.`,
          'Rename the file after its function, or delete it.',
        ),
      );
    }
  }
  for (const fn of functions) {
    const set = prompts[fn.name];
    if (!set || set.calls.length === 0 || (set.not ?? []).length === 0) {
      out.push(
        finding(
          'golden-missing',
          fn.name,
          promptsPath(fn.name),
          set ? 'It needs prompts that should call it and prompts that should not.' : 'No golden prompts.',
          `Write ${promptsPath(fn.name)}: a few things customers say that should call it (with the arguments), and a few that should not.`,
        ),
      );
    }
    for (const call of set?.calls ?? []) out.push(...checkCall(fn, call, router));
    for (const say of set?.not ?? []) {
      const [top, second] = router.rank(say);
      if (top?.name === fn.name && top.score > 0 && (second === undefined || second.score < top.score)) {
        out.push(
          finding(
            'golden-negative',
            fn.name,
            clip(say),
            `This prompt should not call ${fn.name}, but its words point to it first (${top.matched.join(', ')}).`,
            `Put the words that mark this case in the description of the function that should take it, or say in ${fn.name}'s when not to call it and what to use instead.`,
          ),
        );
      }
    }
  }
  return out;
};
