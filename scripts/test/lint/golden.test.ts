import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRouter, lintFunctions, reachable } from '../../lint/index.ts';
import { registered } from './registered.ts';

const calm = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
const book = registered('book_table', {
  description:
    'Books a table at the restaurant for a party at a time. Call it when the customer wants to reserve a table. To change a reservation, use move_table.',
  parameters: z.object({
    guests: z.int().min(1).max(12).describe('How many people are coming'),
    seating: z.enum(['inside', 'terrace']).default('inside').describe('"terrace" when they ask to sit outside'),
  }),
  annotations: calm,
});
const move = registered('move_table', {
  description:
    'Moves a reservation of a table to another time, keeping its reference. Call it when the customer wants to change the time of a reservation. For a new one, use book_table.',
  parameters: z.object({ reference: z.string().max(12).describe('The reservation reference, like "T-1234"') }),
  annotations: { ...calm, destructiveHint: true },
});
const menu = registered('show_menu', {
  description:
    "Shows today's menu with prices and allergens. Call it when the customer asks what there is to eat. Not for bookings.",
  parameters: z.object({}),
  annotations: { readOnlyHint: true },
});
const rules = (prompts: Parameters<typeof lintFunctions>[1]) =>
  lintFunctions([book, move, menu], prompts).findings.filter((f) => f.category === 'golden');

describe('golden prompts, checked offline', () => {
  it('ranks a prompt first for the function whose description carries its words', () => {
    const router = createRouter([book, move, menu]);
    expect(router.rank('Can I reserve a table for four tonight?')[0]?.name).toBe('book_table');
    expect(router.rank('What is on the menu, any allergens?')[0]?.name).toBe('show_menu');
    // "For a new one, use book_table" names the other case: its words do not pull to move_table.
    expect(router.rank('I want to change the time of my reservation')[0]?.name).toBe('move_table');
  });

  it('passes prompts that point to their function with reachable arguments, and negatives that do not', () => {
    expect(
      rules({
        book_table: {
          calls: [
            { say: 'Reserve a table for 4 people, on the terrace please', args: { guests: 4, seating: 'terrace' } },
          ],
          not: ['What is on the menu?'],
        },
        move_table: {
          calls: [{ say: 'Change the time of reservation T-1234', args: { reference: 'T-1234' } }],
          not: ['Reserve a table for two'],
        },
        show_menu: { calls: [{ say: "What's on today's menu?" }], not: ['Reserve a table'] },
      }),
    ).toEqual([]);
  });

  it('reports a prompt that points to a sibling first, saying which words pulled it', () => {
    const [finding] = rules({ show_menu: { calls: [{ say: 'Can I reserve a table?' }], not: ['x'] } }).filter(
      (f) => f.rule === 'golden-top1',
    );
    expect(finding).toMatchObject({ function: 'show_menu', text: 'Can I reserve a table?' });
    expect(finding?.message).toMatch(/None of this prompt's words|points to book_table first/);
  });

  it("reports a negative that points to the function it should not call (the negatives' false positives)", () => {
    const found = rules({ book_table: { calls: [], not: ['Please reserve a table at the restaurant'] } });
    expect(found.map((f) => f.rule)).toEqual(expect.arrayContaining(['golden-missing', 'golden-negative']));
  });

  it('reports an expected argument the prompt does not carry, and one the function does not have', () => {
    const found = rules({
      book_table: {
        calls: [{ say: 'A table for us, please', args: { guests: 4, colour: 'red' } as never }],
        not: ['x'],
      },
    });
    expect(found.map((f) => [f.rule, f.parameter])).toEqual(
      expect.arrayContaining([
        ['golden-args-unreachable', 'guests'],
        ['golden-invalid', 'colour'],
      ]),
    );
  });

  it('reports prompts of a function that is not served, and functions with no prompts', () => {
    const found = rules({ gone: { calls: [{ say: 'hello' }] } });
    expect(found.filter((f) => f.rule === 'golden-invalid').map((f) => f.function)).toEqual(['gone']);
    expect(
      found
        .filter((f) => f.rule === 'golden-missing')
        .map((f) => f.function)
        .sort(),
    ).toEqual(['book_table', 'move_table', 'show_menu']);
  });

  it("reaches values said in other words: numbers in words, enum values the schema ties to the customer's words", () => {
    const guests = book.jsonSchema?.properties?.guests;
    const seating = book.jsonSchema?.properties?.seating;
    expect(reachable(4, guests, 'a table for four')).toBe(true);
    expect(reachable(4, guests, 'a table for us')).toBe(false);
    expect(reachable('terrace', seating, 'can we sit outside?')).toBe(true);
    expect(reachable('inside', seating, 'anything')).toBe(true); // the default
    expect(reachable('+44 7700 900123', undefined, 'my number is +447700900123')).toBe(true);
    expect(reachable('ann@example.com', undefined, 'write to ann@example.com')).toBe(true);
  });
});
