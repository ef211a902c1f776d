// One top-level parameter's JSON Schema -> its flat type name, its constraints in words and an
// example of a valid value. Unions of different types and untyped values are refused.

import { EXPLAINS } from '../env.ts';
import type { ParameterType } from '../platform/protocol/function.ts';

/** The subset of JSON Schema that zod's toJSONSchema emits and this module reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  examples?: unknown[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** What the runtime knows of one top-level parameter. */
export interface ParameterInfo {
  name: string;
  type: ParameterType;
  required: boolean;
  nullable: boolean;
  /** The number must be whole (z.int()). */
  whole: boolean;
  description?: string;
  default?: unknown;
  /** Constraints in words, for the description and the 422 messages. */
  constraints: string[];
  /** A valid value to show the model, when one can be made. */
  example?: unknown;
}

// A string format's words and an example of it; a format not listed is named as it is (`format cidrv4`).
const FORMATS: Record<string, [words: string, example: string]> = {
  email: ['an email address', 'name@example.com'],
  uri: ['a full URL', 'https://example.com'],
  url: ['a full URL', 'https://example.com'],
  date: ['a date as YYYY-MM-DD', '2026-01-31'],
  'date-time': ['a date and time in ISO 8601, e.g. 2026-01-31T09:30:00Z', '2026-01-31T09:30:00Z'],
  time: ['a time as HH:MM:SS', '09:30:00'],
  uuid: ['a UUID', '123e4567-e89b-12d3-a456-426614174000'],
  e164: ['a phone number in international format with a leading +', '+14155550123'],
  ipv4: ['format ipv4', '192.0.2.1'],
};

const typeNameOf = (schema: JsonSchema): ParameterType | 'null' | undefined => {
  const raw = Array.isArray(schema.type) ? undefined : schema.type;
  if (raw === 'integer') return 'number';
  if (raw === 'string' || raw === 'number' || raw === 'boolean' || raw === 'array' || raw === 'object') return raw;
  if (raw === 'null') return 'null';
  const values = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (values && values.length > 0) {
    const kinds = new Set(values.map((v) => (v === null ? 'null' : typeof v)));
    const [only] = kinds;
    if (kinds.size === 1 && (only === 'string' || only === 'number' || only === 'boolean')) return only;
  }
  return undefined;
};

const resolveRef = (schema: JsonSchema, root: JsonSchema): JsonSchema => {
  if (!schema.$ref) return schema;
  if (schema.$ref === '#') return root;
  const key = schema.$ref.replace(/^#\/\$defs\//, '');
  const target = root.$defs?.[key];
  if (!target) throw new Error(`cannot resolve ${schema.$ref}`);
  return target;
};

/** Splits nullable and same-type unions (or, nested, intersections) into their members. */
const flatten = (schema: JsonSchema, root: JsonSchema, nested: boolean) => {
  if (Array.isArray(schema.type)) {
    return {
      members: schema.type.filter((t) => t !== 'null').map((type) => ({ ...schema, type })),
      nullable: schema.type.includes('null'),
      joiner: ' or ',
    };
  }
  if (schema.allOf && !nested)
    throw new Error(
      EXPLAINS
        ? `intersections cannot be described (z.intersection / .and); merge them into one z.object`
        : `intersections cannot be described`,
    );
  const members = (schema.allOf ?? schema.anyOf ?? schema.oneOf ?? [schema]).map((m) => resolveRef(m, root));
  const nonNull = members.filter((m) => typeNameOf(m) !== 'null');
  return { members: nonNull, nullable: nonNull.length < members.length, joiner: schema.allOf ? ' and ' : ' or ' };
};

const quote = (value: unknown) => JSON.stringify(value);

// z.int() bounds itself to the safe integers; that is not worth telling the model.
const bound = (value: number | undefined) =>
  value === undefined || Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value;

/** A number's constraints in words, and an example within them. */
const describeNumber = (schema: JsonSchema, whole: boolean): Described => {
  const min = bound(schema.minimum);
  const max = bound(schema.maximum);
  const { exclusiveMinimum: above, exclusiveMaximum: below, multipleOf: step } = schema;
  const words: string[] = [];
  if (whole) words.push('whole number');
  if (min !== undefined && max !== undefined) words.push(`from ${min} to ${max}`);
  else {
    const parts = [
      min !== undefined ? `at least ${min}` : above !== undefined && `more than ${above}`,
      max !== undefined ? `at most ${max}` : below !== undefined && `less than ${below}`,
    ].filter(Boolean);
    if (parts.length) words.push(parts.join(' and '));
  }
  if (step !== undefined && !(whole && step === 1)) words.push(`a multiple of ${step}`);
  let value = min ?? (above !== undefined ? above + 1 : 1);
  const top = max ?? (below !== undefined ? below - (whole ? 1 : 0.01) : undefined);
  if (top !== undefined && value > top) value = top;
  if (step) value = Math.ceil(value / step) * step;
  return { words, example: whole ? Math.ceil(value) : value };
};

const lengthWords = (min: number | undefined, max: number | undefined, singular: string): string[] => {
  const unit = (n: number) => `${singular}${n === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined)
    return [min === max ? `exactly ${min} ${unit(max)}` : `${min} to ${max} ${unit(max)}`];
  if (min !== undefined && min > 0) return [`at least ${min} ${unit(min)}`];
  if (max !== undefined) return [`at most ${max} ${unit(max)}`];
  return [];
};

const valueWords = (values: unknown[]) =>
  values.length === 1 ? `exactly ${quote(values[0])}` : `one of ${values.map(quote).join(', ')}`;

/** Nesting below this depth is named, not spelled out (and a recursive schema stops here). */
const MAX_DEPTH = 3;

/** What one schema translates into; a top-level parameter adds its name and whether it is required. */
interface Translation {
  /** Its JSON types other than null; more than one only for a union, which the flat map refuses. */
  types: Set<ParameterType | undefined>;
  nullable: boolean;
  whole: boolean;
  constraints: string[];
  description: string | undefined;
  default: unknown;
  example: unknown;
}

/** What each item of a list (or value of a record) must be, for "each ...". */
const memberWords = (t: Translation) => [...t.constraints, ...(t.nullable ? ['or null'] : [])].join(', ');

/** One member of a union (or the only one) in words, with an example and its values when it is an enum. */
interface Described {
  words: string[];
  example: unknown;
  values?: unknown[];
}

// Members are never null here: flatten() has taken null out.
const memberType = typeNameOf as (schema: JsonSchema) => ParameterType | undefined;

/** Describes one member schema of a known type: constraints in words and an example. */
const describeMember = (s: JsonSchema, type: ParameterType | undefined, root: JsonSchema, depth: number): Described => {
  const values = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
  if (values) return { words: [valueWords(values)], example: values[0], values };
  switch (type) {
    case 'number':
      return describeNumber(s, s.type === 'integer');
    case 'string': {
      const format = s.format ? FORMATS[s.format] : undefined;
      const words = s.format ? [format?.[0] ?? `format ${s.format}`] : [];
      words.push(...lengthWords(s.minLength, s.maxLength, 'character'));
      if (s.pattern && !s.format) words.push(`matching the pattern ${s.pattern}`);
      // No example for a pattern: a wrong guess would mislead more than none.
      const plain = 'text'.padEnd(s.minLength ?? 0, 'x').slice(0, s.maxLength ?? undefined);
      const example = s.format ? format?.[1] : s.pattern ? undefined : plain;
      return { words, example };
    }
    case 'boolean':
      return { words: ['true or false'], example: true };
    case 'array': {
      const item = s.items && depth < MAX_DEPTH ? translate(s.items, root, depth + 1) : undefined;
      const [itemType] = item?.types ?? [];
      const itemWords = item ? memberWords(item) : '';
      const words = [
        `a list${item?.types.size === 1 && itemType ? ` of ${itemType}s` : ''}`,
        ...lengthWords(s.minItems, s.maxItems, 'item'),
        ...(itemWords ? [`each ${itemWords}`] : []),
      ];
      const example = item?.example === undefined ? undefined : Array(Math.max(s.minItems ?? 1, 1)).fill(item.example);
      return { words, example };
    }
    case 'object':
      return depth < MAX_DEPTH ? describeFields(s, root, depth) : { words: ['an object'], example: undefined };
    default:
      return { words: ['any value'], example: undefined };
  }
};

/** An object's fields in braces, `{sku (required, string): ...; qty (optional, number)}`, and an example. */
const describeFields = (s: JsonSchema, root: JsonSchema, depth: number): Described => {
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties ?? {}).map(([key, property]) =>
    toField(key, required.has(key), translate(property, root, depth + 1)),
  );
  if (fields.length === 0) {
    // z.record: any keys, each value of one schema.
    const value =
      typeof s.additionalProperties === 'object' ? translate(s.additionalProperties, root, depth + 1) : undefined;
    const each = value && memberWords(value);
    const [valueType] = value?.types ?? [];
    const words = value ? `an object of named ${valueType ?? 'value'}s${each ? `, each ${each}` : ''}` : 'an object';
    return { words: [words], example: undefined };
  }
  const complete = fields.every((f) => !f.required || f.example !== undefined);
  const example = complete
    ? Object.fromEntries(fields.filter((f) => f.required).map((f) => [f.name, f.example]))
    : undefined;
  return { words: [`{${fields.map((f) => fieldText(f, true)).join('; ')}}`], example };
};

/** One schema, nested or not, in one pass: its types, constraints in words and an example. */
const translate = (property: JsonSchema, root: JsonSchema, depth: number): Translation => {
  const schema = resolveRef(property, root);
  const { members, nullable, joiner } = flatten(schema, root, depth > 0);
  const types = new Set(members.map(memberType));
  const described = members.map((m) => describeMember(m, memberType(m), root, depth));
  const allValues = described.every((d) => d.values) ? described.flatMap((d) => d.values ?? []) : undefined;
  const constraints = allValues
    ? [valueWords(allValues)]
    : described.length === 1
      ? (described[0]?.words ?? [])
      : [
          described
            .map((d, i) => d.words.join(', ') || (memberType(members[i] as JsonSchema) ?? 'any value'))
            .join(joiner),
        ];
  const example = schema.examples?.[0] ?? members[0]?.examples?.[0] ?? schema.default ?? described[0]?.example;
  const description = schema.description ?? members.find((m) => m.description)?.description;
  return {
    types: members.length ? types : new Set([undefined]),
    nullable,
    whole: members.some((m) => m.type === 'integer'),
    constraints,
    // toField leaves out what is undefined.
    description,
    default: schema.default,
    example,
  };
};

/** A parameter or a nested field; a nested field may be a union ("string or number"). */
type Field = Omit<ParameterInfo, 'type'> & { type: string };

const toField = (name: string, required: boolean, t: Translation): Field => {
  return {
    name,
    // The types are a set: each is named once.
    type: [...t.types].map((type) => type ?? 'any value').join(' or '),
    required,
    nullable: t.nullable,
    whole: t.whole,
    ...(t.description ? { description: t.description } : {}),
    ...(t.default !== undefined ? { default: t.default } : {}),
    constraints: t.constraints,
    ...(t.example !== undefined ? { example: t.example } : {}),
  };
};

/**
 * A parameter in words. Top level: `seats (required, number): Whole number, from 1 to 500. How many users.`
 * Nested (inside braces, fields joined by `; `): `qty (required, number): whole number, from 1 to 9`.
 */
export const fieldText = (info: Field, nested = false): string => {
  const flags = [info.required ? 'required' : 'optional', info.type];
  if (info.nullable) flags.push('may be null');
  if (info.default !== undefined) flags.push(`default ${quote(info.default)}`);
  const constraints = info.constraints.join(', ');
  const parts = [
    nested ? constraints : `${constraints.charAt(0).toUpperCase()}${constraints.slice(1)}`,
    info.description?.trim(),
  ].filter((part): part is string => Boolean(part));
  const text = parts.map((part) => part.replace(/\.$/, '')).join('. ');
  return `${info.name} (${flags.join(', ')})${text ? `: ${text}${nested ? '' : '.'}` : ''}`;
};

/** Translates one top-level property of a parameter schema; refuses what the flat map cannot hold. */
export const parameterInfo = (
  name: string,
  property: JsonSchema,
  required: boolean,
  root: JsonSchema,
): ParameterInfo => {
  const translation = translate(property, root, 0);
  const { types } = translation;
  if (types.has(undefined)) {
    throw new Error(
      EXPLAINS
        ? `has no single JSON type (z.any, z.unknown or a custom type); give it a concrete zod type`
        : `has no single JSON type`,
    );
  }
  if (types.size > 1) {
    throw new Error(
      EXPLAINS
        ? `is a union of ${[...types].join(' and ')}; the platform's parameter map holds one type per parameter, so use one type (for example z.string() and parse it in the handler)`
        : `is a union of ${[...types].join(' and ')}`,
    );
  }
  return { ...toField(name, required, translation), type: [...types][0] as ParameterType };
};
