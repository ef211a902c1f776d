import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFunction } from '../../define.ts';
import { DefinitionError, describeFunction, describeParameters } from '../../schema/describe.ts';

const describeSchema = (parameters: z.ZodObject) =>
  describeFunction(
    'probe',
    defineFunction({ description: 'A probe used by the table below.', parameters, handler: () => null }),
  );

const lineOf = (description: string, name: string) =>
  description.split('\n').find((line) => line.startsWith(`- ${name} (`));

describe('describeFunction on a table of zod types', () => {
  const cases: [string, z.ZodType, string, RegExp][] = [
    ['string', z.string().min(2).max(10), 'string', /\(required, string\): 2 to 10 characters\./],
    ['number', z.number().gt(0).lt(10), 'number', /More than 0 and less than 10/],
    ['int', z.int().min(1).max(500), 'number', /Whole number, from 1 to 500/],
    ['boolean', z.boolean(), 'boolean', /True or false/],
    ['enum', z.enum(['a', 'b']), 'string', /One of "a", "b"/],
    ['literal', z.literal('yes'), 'string', /Exactly "yes"/],
    ['optional', z.string().optional(), 'string', /\(optional, string\)/],
    ['default', z.number().default(3), 'number', /\(optional, number, default 3\)/],
    ['nullable', z.string().nullable(), 'string', /\(required, string, may be null\)/],
    [
      'array',
      z
        .array(z.enum(['x', 'y']))
        .min(1)
        .max(3),
      'array',
      /A list of strings, 1 to 3 items, each one of "x", "y"/,
    ],
    ['object', z.object({ city: z.string() }), 'object', /\{city \(required, string\)\}/],
    ['email', z.email(), 'string', /An email address/],
    ['url', z.url(), 'string', /A full URL/],
    ['iso date', z.iso.date(), 'string', /A date as YYYY-MM-DD/],
    ['iso datetime', z.iso.datetime(), 'string', /A date and time in ISO 8601/],
    ['date', z.date(), 'string', /A date and time in ISO 8601/],
    ['union of literals', z.union([z.literal('a'), z.literal('b')]), 'string', /One of "a", "b"/],
    ['described', z.string().describe('The customer city'), 'string', /The customer city\./],
  ];

  for (const [label, schema, type, line] of cases) {
    it(`maps ${label} to "${type}" and says ${line.source}`, () => {
      const manifest = describeSchema(z.object({ field: schema }));
      expect(manifest.parameters).toEqual({ field: type });
      expect(lineOf(manifest.description, 'field')).toMatch(line);
    });
  }

  it('gives the fields of array items with their bounds and optionality (not just "a list of objects")', () => {
    const manifest = describeSchema(
      z.object({
        items: z
          .array(z.object({ sku: z.string().describe('Product code'), qty: z.int().min(1).max(9) }))
          .min(1)
          .max(5),
      }),
    );
    expect(manifest.parameters).toEqual({ items: 'array' });
    expect(lineOf(manifest.description, 'items')).toBe(
      '- items (required, array): A list of objects, 1 to 5 items, each {sku (required, string): Product code; qty (required, number): whole number, from 1 to 9}.',
    );
  });

  it('keeps a nested pattern, enum, default and optional field of an object', () => {
    const manifest = describeSchema(
      z.object({
        address: z
          .object({
            zip: z.string().regex(/^\d{5}$/),
            country: z.enum(['US', 'CA']).default('US'),
            floor: z.int().min(0).optional().describe('Leave out for a house.'),
          })
          .describe('Where to ship'),
      }),
    );
    expect(manifest.parameters).toEqual({ address: 'object' });
    expect(lineOf(manifest.description, 'address')).toBe(
      '- address (required, object): {zip (required, string): matching the pattern ^\\d{5}$; country (optional, string, default "US"): one of "US", "CA"; floor (optional, number): whole number, at least 0. Leave out for a house}. Where to ship.',
    );
  });

  it('describes array items of a format, nested lists and null members', () => {
    const manifest = describeSchema(
      z.object({
        emails: z.array(z.email()).max(3),
        grid: z.array(z.array(z.int().min(0))),
        stops: z.array(z.object({ city: z.string(), note: z.string().nullable() })).nullable(),
      }),
    );
    expect(lineOf(manifest.description, 'emails')).toMatch(
      /A list of strings, at most 3 items, each an email address\./,
    );
    expect(lineOf(manifest.description, 'grid')).toMatch(
      /A list of arrays, each a list of numbers, each whole number, at least 0\./,
    );
    expect(lineOf(manifest.description, 'stops')).toMatch(
      /\(required, array, may be null\): A list of objects, each \{city \(required, string\); note \(required, string, may be null\)\}\./,
    );
  });

  it('says what each value of a record must be', () => {
    const manifest = describeSchema(z.object({ stock: z.record(z.string(), z.int().min(0)) }));
    expect(lineOf(manifest.description, 'stock')).toBe(
      '- stock (required, object): An object of named numbers, each whole number, at least 0.',
    );
  });

  it('stops at a recursive schema instead of looping', () => {
    const Node = z.object({
      name: z.string(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const line = lineOf(describeSchema(z.object({ tree: Node })).description, 'tree') ?? '';
    expect(line).toMatch(/^- tree \(required, object\): \{name \(required, string\); children \(optional, array\)/);
    expect(line.length).toBeLessThan(600);
  });

  it('gives a nested example the 422 message can show', () => {
    const [info] = describeParameters(
      'probe',
      z.object({
        items: z.array(z.object({ sku: z.string(), qty: z.int().min(2), gift: z.boolean().optional() })).min(2),
      }),
    );
    expect(info?.example).toEqual([
      { sku: 'text', qty: 2 },
      { sku: 'text', qty: 2 },
    ]);
  });

  it('refuses a union of different types, naming the field', () => {
    expect(() => describeSchema(z.object({ when: z.union([z.string(), z.number()]) }))).toThrow(
      /parameter "when": is a union of string and number/,
    );
  });

  it('refuses an untyped field, naming it', () => {
    expect(() => describeSchema(z.object({ blob: z.any() }))).toThrow(DefinitionError);
    expect(() => describeSchema(z.object({ blob: z.unknown() }))).toThrow(/parameter "blob": has no single JSON type/);
  });

  it('refuses a missing or empty description', () => {
    expect(() =>
      describeFunction('probe', defineFunction({ description: ' ', parameters: z.object({}), handler: () => null })),
    ).toThrow(/description is missing or too short/);
  });

  it('keeps the author description first and lists no parameters as "none"', () => {
    const manifest = describeSchema(z.object({}));
    expect(manifest.description).toBe('A probe used by the table below.\n\nParameters: none.');
    expect(manifest.parameters).toEqual({});
  });

  it('gives the url path and a JSON Schema of the input', () => {
    const manifest = describeSchema(z.object({ n: z.int().default(1) }));
    expect(manifest.path).toBe('/functions/probe');
    expect(manifest.jsonSchema).toMatchObject({ type: 'object', properties: { n: { type: 'integer', default: 1 } } });
    expect(manifest.jsonSchema.required ?? []).not.toContain('n');
  });
});

describe('declared secrets and vars', () => {
  const base = { description: 'Does a thing for the test.', parameters: z.object({}), handler: () => 1 };

  it('carries them in the manifest, sorted and without repeats', () => {
    const manifest = describeFunction(
      'a_fn',
      defineFunction({ ...base, secrets: ['B_KEY', 'A_KEY', 'A_KEY'], vars: ['C_URL'] }),
    );
    expect(manifest).toMatchObject({ secrets: ['A_KEY', 'B_KEY'], vars: ['C_URL'] });
    expect(describeFunction('b_fn', defineFunction(base))).toMatchObject({ secrets: [], vars: [] });
  });

  it('refuses a name that is not an environment variable name', () => {
    expect(() => describeFunction('a_fn', defineFunction({ ...base, vars: ['store-url'] }))).toThrow(
      new DefinitionError(
        'Function "a_fn": vars must list environment variable names such as "SHOP_API_KEY", not "store-url".',
      ),
    );
  });
});
