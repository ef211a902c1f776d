// One top-level parameter's JSON Schema -> its flat type name, its constraints in words and an
// example of a valid value. Unions of different types and untyped values are refused.
import type { ParameterType } from './platform/function.ts';

/** The subset of JSON Schema that zod's toJSONSchema emits and this module reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
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

const FORMAT_EXAMPLES: Record<string, string> = {
  email: 'name@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  date: '2026-01-31',
  'date-time': '2026-01-31T09:30:00Z',
  time: '09:30:00',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  e164: '+14155550123',
  ipv4: '192.0.2.1',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an email address',
  uri: 'a full URL',
  url: 'a full URL',
  date: 'a date as YYYY-MM-DD',
  'date-time': 'a date and time in ISO 8601, e.g. 2026-01-31T09:30:00Z',
  time: 'a time as HH:MM:SS',
  uuid: 'a UUID',
  e164: 'a phone number in international format with a leading +',
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
  const key = schema.$ref.replace(/^#\/\$defs\//, '');
  const target = root.$defs?.[key];
  if (!target) throw new Error(`cannot resolve ${schema.$ref}`);
  return target;
};

/** Splits nullable and same-type unions into their members; refuses different types. */
const flatten = (schema: JsonSchema, root: JsonSchema) => {
  const members = (schema.anyOf ?? schema.oneOf ?? [schema]).map((m) => resolveRef(m, root));
  if (Array.isArray(schema.type)) {
    return {
      members: schema.type.filter((t) => t !== 'null').map((type) => ({ ...schema, type })),
      nullable: schema.type.includes('null'),
    };
  }
  if (schema.allOf)
    throw new Error('intersections (z.intersection / .and) cannot be described; merge them into one z.object');
  const nonNull = members.filter((m) => typeNameOf(m) !== 'null');
  return { members: nonNull, nullable: nonNull.length < members.length };
};

const quote = (value: unknown) => JSON.stringify(value);

// z.int() bounds itself to the safe integers; that is not worth telling the model.
const bound = (value: number | undefined) =>
  value === undefined || Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value;

const numberWords = (schema: JsonSchema, whole: boolean): string[] => {
  const s = { ...schema, minimum: bound(schema.minimum), maximum: bound(schema.maximum) };
  const words: string[] = [];
  if (whole) words.push('whole number');
  const low =
    s.minimum !== undefined
      ? `${s.minimum}`
      : s.exclusiveMinimum !== undefined
        ? `more than ${s.exclusiveMinimum}`
        : undefined;
  const high =
    s.maximum !== undefined
      ? `${s.maximum}`
      : s.exclusiveMaximum !== undefined
        ? `less than ${s.exclusiveMaximum}`
        : undefined;
  if (s.minimum !== undefined && s.maximum !== undefined) words.push(`from ${low} to ${high}`);
  else {
    const parts = [
      low && (s.minimum !== undefined ? `at least ${low}` : low),
      high && (s.maximum !== undefined ? `at most ${high}` : high),
    ].filter(Boolean);
    if (parts.length) words.push(parts.join(' and '));
  }
  if (s.multipleOf !== undefined && !(whole && s.multipleOf === 1)) words.push(`a multiple of ${s.multipleOf}`);
  return words;
};

const numberExample = (schema: JsonSchema, whole: boolean): number => {
  const s = { ...schema, minimum: bound(schema.minimum), maximum: bound(schema.maximum) };
  let value = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
  const high = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (whole ? 1 : 0.01) : undefined);
  if (high !== undefined && value > high) value = high;
  if (s.multipleOf) value = Math.ceil(value / s.multipleOf) * s.multipleOf;
  return whole ? Math.ceil(value) : value;
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

/** Describes one member schema of a known type: constraints in words and an example. */
const describeMember = (s: JsonSchema, type: ParameterType) => {
  const whole = s.type === 'integer';
  const values = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
  if (values) return { whole, words: [valueWords(values)], example: values[0], values };
  switch (type) {
    case 'number':
      return { whole, words: numberWords(s, whole), example: numberExample(s, whole) };
    case 'string': {
      const words = s.format ? [FORMAT_WORDS[s.format] ?? `format ${s.format}`] : [];
      words.push(...lengthWords(s.minLength, s.maxLength, 'character'));
      if (s.pattern && !s.format) words.push(`matching the pattern ${s.pattern}`);
      // No example for a pattern: a wrong guess would mislead more than none.
      const plain = 'text'.padEnd(s.minLength ?? 0, 'x').slice(0, s.maxLength ?? undefined);
      const example = s.format ? FORMAT_EXAMPLES[s.format] : s.pattern ? undefined : plain;
      return { whole, words, example };
    }
    case 'boolean':
      return { whole, words: ['true or false'], example: true };
    case 'array': {
      const item = s.items ? typeNameOf(s.items) : undefined;
      const words = [
        `a list${item && item !== 'null' ? ` of ${item}s` : ''}`,
        ...lengthWords(s.minItems, s.maxItems, 'item'),
      ];
      const itemValues = s.items?.enum;
      if (itemValues) words.push(`each ${valueWords(itemValues)}`);
      return { whole, words, example: itemValues ? [itemValues[0]] : undefined };
    }
    default: {
      const keys = Object.keys(s.properties ?? {});
      return { whole, words: keys.length ? [`an object with ${keys.join(', ')}`] : ['an object'], example: undefined };
    }
  }
};

/** Translates one top-level property of a parameter schema. */
export const parameterInfo = (
  name: string,
  property: JsonSchema,
  required: boolean,
  root: JsonSchema,
): ParameterInfo => {
  const schema = resolveRef(property, root);
  const { members, nullable } = flatten(schema, root);
  const types = new Set(members.map(typeNameOf));
  if (types.has(undefined) || members.length === 0) {
    throw new Error('has no single JSON type (z.any, z.unknown or a custom type); give it a concrete zod type');
  }
  if (types.size > 1) {
    throw new Error(
      `is a union of ${[...types].join(' and ')}; the platform's parameter map holds one type per parameter, so use one type (for example z.string() and parse it in the handler)`,
    );
  }
  const type = [...types][0] as ParameterType;
  const described = members.map((m) => describeMember(m, type));
  const allValues = described.every((d) => d.values) ? described.flatMap((d) => d.values ?? []) : undefined;
  const merged = {
    whole: described.some((d) => d.whole),
    words: allValues ? [valueWords(allValues)] : described.flatMap((d) => d.words),
    example: described[0]?.example,
  };
  const example = schema.examples?.[0] ?? members[0]?.examples?.[0] ?? schema.default ?? merged.example;
  const description = schema.description ?? members.find((m) => m.description)?.description;
  return {
    name,
    type,
    required,
    nullable,
    whole: merged.whole,
    ...(description ? { description } : {}),
    ...(schema.default !== undefined ? { default: schema.default } : {}),
    constraints: merged.words,
    ...(example !== undefined ? { example } : {}),
  };
};
