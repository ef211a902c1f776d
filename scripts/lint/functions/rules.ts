// The rules on one function's registered form. Each has a stable id (docs/descriptions.md explains
// it), a category, a severity, and a check that quotes the text it is about and says how to fix it.
import type { JsonSchema } from 'agent-functions/worker';
import { DESCRIPTION_LIMIT, PLACEHOLDER_DESCRIPTION } from 'agent-functions/worker';
import type { Category, Finding, LintFunction, Severity } from './types.ts';
import { authorText, parameterLineOf, sentences, terms, words } from './words.ts';

/** One rule as the docs and `--json` list it. */
export interface Rule {
  id: string;
  category: Category;
  severity: Severity;
  /** What it checks, in a line. */
  checks: string;
}

/** Names the platform accepts (docs/platform-contract.md §5), repeated here so the engine stays free of the Worker's modules. */
const FUNCTION_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A sentence that says when to call: "Call it when…", "Use this once…", "…when the customer asks…". */
const WHEN =
  /\b(call|use|run|ask for|trigger)\b[^.]*\b(when|whenever|once|after|before|if|as soon as)\b|\b(when|whenever|once|if) (the )?(customer|user|caller|person|they)\b/i;
/** A sentence that says when not to, or what to use instead. */
export const WHEN_NOT: RegExp =
  /\b(do not|don't|never|not for|not when|instead|only (when|if|once|after)|rather than|unless)\b|\buse [a-z][a-z0-9]*_[a-z0-9_]+/i;
/** A sentence about another case ("Not for…", "To move it instead, use x"): its words are the alternative's. */
export const OTHER_CASE: RegExp =
  /\b(do not|don't|not for|not when|instead|rather than)\b|\buse [a-z][a-z0-9]*_[a-z0-9_]+/i;
/** Verbs that say a call changes something. */
const CHANGE =
  /\b(book|books|booked|cancel|cancels|creat|save|saves|send|sends|updat|delet|remov|add|adds|mov|chang|replac|record|writ|submit|charg|pay|refund|schedul|reschedul|register|hand|hands|transfer|notif|post|stor|set|sets|assign|clos|open|subscrib|unsubscrib|order|place|reserv|confirm)\w*/i;
/** Verbs that say a call destroys or overwrites something. */
const DESTROY = /\b(cancel|delet|remov|replac|overwrit|mov|clear|revok|void|refund|reschedul|drop)\w*/i;
/** Verbs that say it only reads. */
const READ =
  /\b(look|looks|list|lists|check|checks|get|gets|find|finds|search|quote|quotes|say|says|show|shows|read|reads|tell|tells|return|returns|fetch)\b/i;
/** A first word that says nothing about what the function does. */
const VAGUE =
  /^(handles?|manages?|process(es)?|does|deals? with|helper|utility|this (function|tool)|a (function|tool)|function|tool)\b/i;
/** What a description says for a function called twice. */
const REPEAT = /\b(again|twice|once|duplicate|second|same (booking|answer|result|one|contact)|repeat)\b/i;
/** A parameter whose values have a shape the model must get right. */
const SHAPED = /\b(phone|date|time|email|e-mail|url|link|reference|code|number|id|iban|postcode|zip|sku)\b/i;
/** An example written into a text: "like …", "e.g. …", "such as …", a quoted value. */
const HAS_EXAMPLE = /\b(like|e\.g\.|for example|such as)\b|"[^"]+"|\+\d|\d{3,}/i;
/** Choices listed in prose ("either monthly or yearly", "one of a, b or c"). */
const PROSE_CHOICES = /\b(either \w+ or \w+|one of\b|must be (one of|either))/i;
const VAGUE_NAMES = new Set([
  'do',
  'run',
  'handle',
  'process',
  'helper',
  'tool',
  'function',
  'action',
  'execute',
  'call',
  'main',
  'test',
]);

export const RULES: readonly Rule[] = [
  {
    id: 'placeholder',
    category: 'purpose',
    severity: 'error',
    checks: "the scaffold's placeholder description is still there",
  },
  {
    id: 'purpose-restates-name',
    category: 'purpose',
    severity: 'error',
    checks: 'the first sentence says no more than the name',
  },
  {
    id: 'purpose-vague',
    category: 'purpose',
    severity: 'warning',
    checks: 'the first sentence opens with a word that says nothing (Handles, Manages, Processes…)',
  },
  {
    id: 'when-missing',
    category: 'when',
    severity: 'error',
    checks: 'no sentence says when to call it ("Call it when the customer…")',
  },
  {
    id: 'when-not-missing',
    category: 'when',
    severity: 'warning',
    checks: 'no sentence says when not to, or what to use instead',
  },
  {
    id: 'write-unstated',
    category: 'behaviour',
    severity: 'error',
    checks: 'a write (effect "write" or readOnlyHint false) whose description names no change',
  },
  {
    id: 'effect-conflict',
    category: 'behaviour',
    severity: 'error',
    checks: 'effect, the MCP annotations and the description disagree on whether it writes or destroys',
  },
  {
    id: 'annotations-missing',
    category: 'behaviour',
    severity: 'warning',
    checks: 'neither effect nor annotations say whether it reads or writes',
  },
  {
    id: 'repeat-unstated',
    category: 'behaviour',
    severity: 'warning',
    checks: 'a write that is not idempotent does not say what a second call does',
  },
  {
    id: 'param-undescribed',
    category: 'parameters',
    severity: 'error',
    checks: 'a parameter has no description (.describe())',
  },
  {
    id: 'param-restates-name',
    category: 'parameters',
    severity: 'warning',
    checks: "a parameter's description says no more than its name",
  },
  {
    id: 'param-unconstrained',
    category: 'parameters',
    severity: 'warning',
    checks: 'a string or number parameter states no constraint (length, range, format, values) and shows no example',
  },
  {
    id: 'choices-in-prose',
    category: 'parameters',
    severity: 'warning',
    checks: 'a parameter lists its choices in words but is not an enum',
  },
  {
    id: 'format-unexampled',
    category: 'parameters',
    severity: 'warning',
    checks: 'a phone, date, reference or code parameter shows no format and no example in the registered description',
  },
  {
    id: 'description-too-long',
    category: 'limits',
    severity: 'error',
    checks: `the registered description (parameter list included) is over ${DESCRIPTION_LIMIT} characters`,
  },
  {
    id: 'description-near-limit',
    category: 'limits',
    severity: 'warning',
    checks: `the registered description is over 85% of ${DESCRIPTION_LIMIT} characters`,
  },
  {
    id: 'set-too-large',
    category: 'limits',
    severity: 'warning',
    checks: 'more than 128 functions, the tool limit of common function-calling APIs',
  },
  {
    id: 'error-no-example',
    category: 'examples-and-errors',
    severity: 'warning',
    checks: 'a 422 for this parameter could not show an example (a pattern with no .meta({ examples }))',
  },
  {
    id: 'name-invalid',
    category: 'names',
    severity: 'error',
    checks: 'a function name the platform refuses (lower-case snake_case, 64 characters)',
  },
  {
    id: 'parameter-name-invalid',
    category: 'names',
    severity: 'error',
    checks: 'a parameter name that is not a plain identifier',
  },
  {
    id: 'name-vague',
    category: 'names',
    severity: 'warning',
    checks: 'a one-word or generic function name (verb_object reads best)',
  },
  {
    id: 'siblings-confusable',
    category: 'siblings',
    severity: 'error',
    checks: 'two functions too alike, and neither names the other as the alternative',
  },
  {
    id: 'golden-missing',
    category: 'golden',
    severity: 'warning',
    checks: 'no golden prompts (functions/<name>.prompts.ts), or none that should not call it',
  },
  {
    id: 'golden-top1',
    category: 'golden',
    severity: 'error',
    checks: "a prompt's words point to another function's description first",
  },
  {
    id: 'golden-negative',
    category: 'golden',
    severity: 'error',
    checks: 'a prompt that should not call the function points to it first',
  },
  {
    id: 'golden-args-unreachable',
    category: 'golden',
    severity: 'error',
    checks: "an expected argument value cannot be reached from the prompt with the schema's hints",
  },
  {
    id: 'golden-invalid',
    category: 'golden',
    severity: 'error',
    checks: 'a prompt file names no served function or an unknown parameter',
  },
];

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
  return {
    rule: id,
    severity: rule.severity,
    category: rule.category,
    function: fn,
    ...(parameter ? { parameter } : {}),
    text,
    message,
    fix,
  };
};

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Whether a call changes something: effect first, then the annotations; undefined when neither says. */
export const writes = (fn: LintFunction): boolean | undefined =>
  fn.effect === 'write'
    ? true
    : fn.effect === 'read'
      ? false
      : fn.annotations?.readOnlyHint === undefined
        ? undefined
        : !fn.annotations.readOnlyHint;

const purposeRules = (fn: LintFunction, own: string): Finding[] => {
  const out: Finding[] = [];
  if (own.includes(PLACEHOLDER_DESCRIPTION.slice(0, 40))) {
    out.push(
      finding(
        'placeholder',
        fn.name,
        clip(own),
        "Still the scaffold's placeholder.",
        'Say what the function does and when the agent should call it.',
      ),
    );
    return out;
  }
  const first = sentences(own)[0] ?? own;
  const nameTerms = terms(fn.name.replace(/_/g, ' '));
  const extra = [...terms(first)].filter((t) => !nameTerms.has(t));
  if (extra.length < 2) {
    out.push(
      finding(
        'purpose-restates-name',
        fn.name,
        first,
        `The first sentence says little more than the name "${fn.name}".`,
        'Say what it does and returns, for which case: "Looks up an order by its number and email; says where it is and how it ships."',
      ),
    );
  }
  if (VAGUE.test(first)) {
    out.push(
      finding(
        'purpose-vague',
        fn.name,
        first,
        'The first word says nothing about what it does.',
        'Open with the action: "Books…", "Looks up…", "Cancels…".',
      ),
    );
  }
  return out;
};

const whenRules = (fn: LintFunction, own: string): Finding[] => {
  const out: Finding[] = [];
  const all = sentences(own);
  if (!all.some((s) => WHEN.test(s))) {
    out.push(
      finding(
        'when-missing',
        fn.name,
        clip(own),
        'No sentence says when the agent should call it.',
        'Add "Call it when the customer …" with the situation in the customer\'s words.',
      ),
    );
  }
  if (!all.some((s) => WHEN_NOT.test(s))) {
    out.push(
      finding(
        'when-not-missing',
        fn.name,
        clip(own),
        'Nothing says when not to call it, or what to use instead.',
        'Add "Do not call it for …" or "To … instead, use other_function."',
      ),
    );
  }
  return out;
};

const behaviourRules = (fn: LintFunction, own: string): Finding[] => {
  const out: Finding[] = [];
  const a = fn.annotations;
  const isWrite = writes(fn);
  const first = sentences(own)[0] ?? own;
  if (isWrite === undefined) {
    out.push(
      finding(
        'annotations-missing',
        fn.name,
        fn.name,
        'Neither effect nor annotations say whether a call changes anything.',
        'Set annotations: { readOnlyHint: true } for a look-up, or say what it writes (readOnlyHint: false, destructiveHint, idempotentHint).',
      ),
    );
  }
  if (fn.effect === 'read' && a?.readOnlyHint === false) {
    out.push(
      finding(
        'effect-conflict',
        fn.name,
        'effect: "read", readOnlyHint: false',
        'effect says it only reads, the annotations say it writes.',
        'Make them agree.',
      ),
    );
  }
  if (fn.effect === 'write' && a?.readOnlyHint === true) {
    out.push(
      finding(
        'effect-conflict',
        fn.name,
        'effect: "write", readOnlyHint: true',
        'effect says it writes, the annotations say it only reads.',
        'Make them agree.',
      ),
    );
  }
  if (isWrite === true && !CHANGE.test(own)) {
    out.push(
      finding(
        'write-unstated',
        fn.name,
        clip(own),
        'It writes, but the description names no change.',
        'Say what a call changes: "Books…", "Sends…", "Saves…", and what the customer will notice.',
      ),
    );
  }
  if (isWrite === false && CHANGE.test(first) && !READ.test(first)) {
    out.push(
      finding(
        'effect-conflict',
        fn.name,
        first,
        'It is declared read-only, but its first sentence says it changes something.',
        'Either say what it reads, or declare it a write (readOnlyHint: false).',
      ),
    );
  }
  if (isWrite && a?.destructiveHint === true && !DESTROY.test(own)) {
    out.push(
      finding(
        'effect-conflict',
        fn.name,
        clip(own),
        'destructiveHint says it destroys or overwrites, the description does not say what.',
        'Say what is lost or replaced ("Cancels…", "Replaces…").',
      ),
    );
  }
  if (isWrite && a?.destructiveHint === false && DESTROY.test(first) && !CHANGE.test(first.replace(DESTROY, ''))) {
    out.push(
      finding(
        'effect-conflict',
        fn.name,
        first,
        'The description says it cancels or replaces, but destructiveHint is false.',
        'Set destructiveHint: true, or reword.',
      ),
    );
  }
  if (isWrite && a?.idempotentHint !== true && !REPEAT.test(own)) {
    out.push(
      finding(
        'repeat-unstated',
        fn.name,
        clip(own),
        'A second call with the same arguments may act again, and the description does not say so.',
        'Say what calling it twice does ("calling it again sends a second message"), or make it idempotent.',
      ),
    );
  }
  return out;
};

const constrained = (p: JsonSchema): boolean =>
  p.enum !== undefined ||
  p.const !== undefined ||
  p.format !== undefined ||
  p.pattern !== undefined ||
  p.minLength !== undefined ||
  p.maxLength !== undefined ||
  p.minimum !== undefined ||
  p.maximum !== undefined ||
  p.exclusiveMinimum !== undefined ||
  p.exclusiveMaximum !== undefined ||
  p.default !== undefined ||
  (p.anyOf ?? p.oneOf ?? []).some(constrained);

/** The member of a nullable union that carries the type, or the schema itself. */
const core = (p: JsonSchema): JsonSchema => (p.anyOf ?? p.oneOf ?? []).find((m) => m.type !== 'null') ?? p;

const parameterRules = (fn: LintFunction): Finding[] => {
  const out: Finding[] = [];
  const properties = fn.jsonSchema?.properties ?? {};
  for (const name of Object.keys(fn.parameters)) {
    const line = parameterLineOf(fn.description, name) ?? name;
    if (!PARAMETER_NAME.test(name)) {
      out.push(
        finding(
          'parameter-name-invalid',
          fn.name,
          name,
          `"${name}" is not a plain identifier.`,
          'Use letters, digits and _ (camelCase or snake_case), starting with a letter.',
          name,
        ),
      );
    }
    const schema = properties[name];
    if (!schema) continue;
    const p = core(schema);
    const described = (schema.description ?? p.description ?? '').trim();
    if (!described) {
      out.push(
        finding(
          'param-undescribed',
          fn.name,
          line,
          `"${name}" has no description.`,
          `Add .describe('…') saying what ${name} is, where the agent gets it, and its format.`,
          name,
        ),
      );
      continue;
    }
    const nameTerms = terms(name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' '));
    if ([...terms(described)].filter((t) => !nameTerms.has(t)).length < 1) {
      out.push(
        finding(
          'param-restates-name',
          fn.name,
          line,
          `The description of "${name}" says no more than its name.`,
          'Say where the value comes from and what it looks like.',
          name,
        ),
      );
    }
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
    // Examples in the JSON Schema reach MCP and OpenAPI clients, not the registered description: read the line.
    const shown = HAS_EXAMPLE.test(described) || /\b(e\.g\.|example)/i.test(line);
    if ((type === 'string' || type === 'number' || type === 'integer') && !constrained(schema) && !shown) {
      out.push(
        finding(
          'param-unconstrained',
          fn.name,
          line,
          `"${name}" states no constraint and no example.`,
          type === 'string'
            ? 'Give it a .max(), a format (z.email(), z.iso.date()), an enum or .meta({ examples: [...] }).'
            : 'Give it .min() and .max(), or .int().',
          name,
        ),
      );
    }
    if (type === 'string' && p.enum === undefined && PROSE_CHOICES.test(described)) {
      out.push(
        finding(
          'choices-in-prose',
          fn.name,
          line,
          `"${name}" lists its choices in words; the model may send anything.`,
          'Make it z.enum([...]): the values are then listed and checked.',
          name,
        ),
      );
    }
    const hinted = `${name.replace(/([a-z])([A-Z])/g, '$1 $2')} ${described}`;
    if (type === 'string' && SHAPED.test(hinted) && !p.format && !p.enum && !shown) {
      out.push(
        finding(
          'format-unexampled',
          fn.name,
          line,
          `"${name}" has a shape the model must get right, but the registered description shows no format and no example.`,
          'Show one in its .describe() text: like "+44 7700 900123" (an example in .meta() reaches MCP and OpenAPI only).',
          name,
        ),
      );
    }
    if (type === 'string' && p.pattern && !p.format && !(p.examples?.length ?? 0) && p.default === undefined) {
      out.push(
        finding(
          'error-no-example',
          fn.name,
          line,
          `A wrong "${name}" is answered 422 naming the argument and the pattern, but with no example.`,
          "Add .meta({ examples: ['…'] }) to the schema: the description and the 422 then show it.",
          name,
        ),
      );
    }
  }
  return out;
};

const limitRules = (fn: LintFunction): Finding[] => {
  const length = fn.description.length;
  if (length > DESCRIPTION_LIMIT) {
    return [
      finding(
        'description-too-long',
        fn.name,
        `${length} characters`,
        `The registered description is ${length} characters, over ${DESCRIPTION_LIMIT}.`,
        'Cut what the model does not need to choose and call it; move detail into the answer it returns.',
      ),
    ];
  }
  if (length > DESCRIPTION_LIMIT * 0.85) {
    return [
      finding(
        'description-near-limit',
        fn.name,
        `${length} characters`,
        `The registered description is ${length} of ${DESCRIPTION_LIMIT} characters.`,
        'Tighten it before a new parameter pushes it over.',
      ),
    ];
  }
  return [];
};

const nameRules = (fn: LintFunction): Finding[] => {
  if (!FUNCTION_NAME.test(fn.name)) {
    return [
      finding(
        'name-invalid',
        fn.name,
        fn.name,
        `The platform refuses the name "${fn.name}".`,
        'Use lower-case snake_case, starting with a letter, at most 64 characters (rename the file).',
      ),
    ];
  }
  const parts = words(fn.name.replace(/_/g, ' '));
  if (parts.length < 2 || parts.every((p) => VAGUE_NAMES.has(p))) {
    return [
      finding(
        'name-vague',
        fn.name,
        fn.name,
        `"${fn.name}" does not say what it acts on.`,
        'Name it verb_object: get_order_status, book_appointment.',
      ),
    ];
  }
  return [];
};

/** Every per-function rule on one function. */
export const lintOne = (fn: LintFunction): Finding[] => {
  const own = authorText(fn.description);
  const findings = purposeRules(fn, own);
  if (findings.some((f) => f.rule === 'placeholder')) return findings;
  return [
    ...findings,
    ...whenRules(fn, own),
    ...behaviourRules(fn, own),
    ...parameterRules(fn),
    ...limitRules(fn),
    ...nameRules(fn),
  ];
};
