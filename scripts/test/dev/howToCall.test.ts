// The call line npm run dev prints: which function it shows, with which arguments.
import { describe, expect, it } from 'vitest';
import { exampleArgs, exampleCallOf, howToCall } from '../../dev/howToCall.ts';

const schema = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

const readOnly = { readOnlyHint: true };
const book = { name: 'a_book', jsonSchema: schema({ start: { type: 'string' } }) };
const list = { name: 'b_list', jsonSchema: schema({}), annotations: readOnly };
const order = {
  name: 'c_order',
  jsonSchema: schema({ number: { type: 'integer', minimum: 1 } }),
  annotations: readOnly,
  secrets: ['SHOP_API_KEY'],
};
const search = { name: 'd_search', jsonSchema: schema({ query: { type: 'string' } }), annotations: readOnly };
const quote = {
  name: 'e_quote',
  jsonSchema: schema({ plan: { type: 'string', enum: ['starter', 'growth'] }, seats: { type: 'integer', minimum: 1 } }),
  annotations: readOnly,
};

describe('the function npm run dev shows a call of', () => {
  it('is one that changes nothing, needs no setting and takes example arguments that fit', () => {
    expect(exampleCallOf([book, list, order, search, quote])?.name).toBe('e_quote');
    expect(exampleArgs(quote.jsonSchema)).toEqual({ plan: 'starter', seats: 1 });
  });

  it('is one without arguments when no other is as safe, and the first when none is', () => {
    expect(exampleCallOf([book, list, order, search])?.name).toBe('b_list');
    expect(exampleCallOf([book, order, search])?.name).toBe('a_book');
    expect(exampleCallOf([])).toBeUndefined();
  });

  it('is printed as a platform call and a curl with those arguments, and as a hint when there is none', async () => {
    const lines = await howToCall({
      origin: 'http://127.0.0.1:8787',
      secret: undefined,
      consoleUrl: 'http://127.0.0.1:8789/',
      functions: [book, quote],
      accounts: ['default'],
    });
    expect(lines).toContain(`  npm run platform -- call e_quote '{"plan":"starter","seats":1}'`);
    expect(lines).toContain(
      `  curl -s -X POST 'http://127.0.0.1:8787/functions/e_quote' -H 'content-type: application/json' -d '{"plan":"starter","seats":1}'`,
    );
    const empty = await howToCall({
      origin: 'http://x',
      secret: undefined,
      consoleUrl: 'http://c/',
      functions: [],
      accounts: ['default'],
    });
    expect(empty[0]).toMatch(/functions\/ serves nothing/);
  });

  it('offers --account only with several accounts, naming the real ones', async () => {
    const options = { origin: 'http://127.0.0.1:8787', secret: undefined, consoleUrl: 'http://c/', functions: [quote] };
    const one = (await howToCall({ ...options, accounts: ['default'] })).join('\n');
    expect(one).not.toContain('--account');
    const several = await howToCall({ ...options, accounts: ['north', 'client-acme'] });
    expect(several).toContain(`  npm run platform -- call e_quote '{"plan":"starter","seats":1}' --account north`);
    expect(several).toContain('[dev] --account picks the client: north, client-acme.');
    expect(several.join('\n')).not.toContain('agency');
  });
});
