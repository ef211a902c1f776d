// Parameters (each described, constrained, values and formats shown) and the examples a 422 can give.
import type { JsonSchema } from 'agent-functions/worker';
import { HAS_EXAMPLE, PARAMETER_NAME, PROSE_CHOICES, SHAPED } from './patterns.ts';
import { findingsFor } from './ruleList.ts';
import type { Finding, LintFunction } from './types.ts';
import { parameterLineOf, terms } from './words.ts';

/** Whether the schema states anything the model can check a value against (a default says nothing). */
export const constrained = (p: JsonSchema): boolean =>
  [p.enum, p.const, p.format, p.pattern, p.minLength, p.maxLength].some((v) => v !== undefined) ||
  [p.minimum, p.maximum, p.exclusiveMinimum, p.exclusiveMaximum].some((v) => v !== undefined) ||
  (p.anyOf ?? p.oneOf ?? []).some(constrained);

/** The member of a nullable union that carries the type, or the schema itself. */
export const core = (p: JsonSchema): JsonSchema => (p.anyOf ?? p.oneOf ?? []).find((m) => m.type !== 'null') ?? p;

const spaced = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');

const oneParameter = (fn: LintFunction, name: string, schema: JsonSchema | undefined): Finding[] => {
  const hit = findingsFor(fn.name);
  const line = parameterLineOf(fn.description, name) ?? name;
  const out: Finding[] = [];
  if (!PARAMETER_NAME.test(name)) {
    const fix = 'Use letters, digits and _ (camelCase or snake_case), starting with a letter.';
    out.push(hit('parameter-name-invalid', name, `"${name}" is not a plain identifier.`, fix, name));
  }
  if (!schema) return out;
  const p = core(schema);
  const described = (schema.description ?? p.description ?? '').trim();
  if (!described) {
    const fix = `Add .describe('…'): what ${name} is, where the agent gets it, its format.`;
    return [...out, hit('param-undescribed', line, `"${name}" has no description.`, fix, name)];
  }
  const nameTerms = terms(spaced(name));
  if ([...terms(described)].every((t) => nameTerms.has(t))) {
    const fix = 'Say where the value comes from and what it looks like.';
    out.push(hit('param-restates-name', line, `The description of "${name}" says no more than its name.`, fix, name));
  }
  const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
  // Examples in the JSON Schema reach MCP and OpenAPI clients, not the registered description: read the line.
  const shown = HAS_EXAMPLE.test(described) || /\b(e\.g\.|example)/i.test(line);
  if ((type === 'string' || type === 'number' || type === 'integer') && !constrained(schema) && !shown) {
    const fix =
      type === 'string'
        ? 'Give it a .max(), a format (z.email()), an enum or an example.'
        : 'Give it .min() and .max().';
    out.push(hit('param-unconstrained', line, `"${name}" states no constraint and shows no example.`, fix, name));
  }
  // Values named in words ("urgent" only when…) with nothing that checks them.
  const quotesValues = /"[a-z][a-z0-9_]*"/.test(described) && !constrained(schema);
  if (type === 'string' && p.enum === undefined && (PROSE_CHOICES.test(described) || quotesValues)) {
    const fix = 'Make it z.enum([...]): the values are then listed and checked.';
    out.push(
      hit('choices-in-prose', line, `"${name}" names its values in words; the model may send anything.`, fix, name),
    );
  }
  if (type === 'string' && SHAPED.test(`${spaced(name)} ${described}`) && !p.format && !p.enum && !shown) {
    const fix = 'Show one in .describe(): like "+44 7700 900123" (.meta() examples reach MCP and OpenAPI only).';
    const message = `"${name}" has a shape the model must get right, but its line shows no format and no example.`;
    out.push(hit('format-unexampled', line, message, fix, name));
  }
  if (type === 'string' && p.pattern && !p.format && !(p.examples?.length ?? 0) && p.default === undefined) {
    const fix = "Add .meta({ examples: ['…'] }): the 422 then shows one.";
    const message = `A wrong "${name}" is answered 422 naming it and the pattern, with no example.`;
    out.push(hit('error-no-example', line, message, fix, name));
  }
  return out;
};

/** Every parameter's rules, in the order of the parameter map. */
export const parameterRules = (fn: LintFunction): Finding[] =>
  Object.keys(fn.parameters).flatMap((name) => oneParameter(fn, name, fn.jsonSchema?.properties?.[name]));
