// The words of a 422, argument by argument: ours where zod would only repeat the declaration, an
// author's own message kept wherever it is written (a check, a refinement, a project's customError),
// zod's own below the top level. Pins what src/args.ts says whichever way it gets there.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateArguments } from '../../args.ts';
import { defineFunction } from '../../define.ts';
import { FunctionError } from '../../errors.ts';
import { createRegistry } from '../../registry.ts';

const parameters = z.object({
  seats: z.int().min(1).max(500).describe('How many users'),
  email: z.email(),
  plan: z.enum(['starter', 'growth']),
  code: z.string().max(3, 'Use the three-letter code'),
  pin: z.string().refine((pin) => /^\d{4}$/.test(pin), 'A PIN is four digits'),
  address: z.object({ zip: z.string().length(5) }).optional(),
  when: z.string(),
});

const registered = createRegistry({
  probe: defineFunction({ description: 'A probe of the words of a refusal.', parameters, handler: () => null }),
}).get('probe');

/** Each argument's problem, as the 422's details give it. */
const problems = async (args: Record<string, unknown>): Promise<Record<string, string>> => {
  if (!registered) throw new Error('probe is not registered');
  try {
    await validateArguments(parameters, { ...args }, registered.parameters);
  } catch (error) {
    if (!(error instanceof FunctionError)) throw error;
    return Object.fromEntries((error.details ?? []).map((d) => [d.argument, d.problem]));
  }
  throw new Error('the arguments were valid');
};

const wrong = {
  seats: 900,
  email: 'not-an-email',
  plan: 'platinum',
  code: 'ABCD',
  pin: '12',
  address: { zip: '1' },
  seets: 3,
};

describe('the words of a 422', () => {
  it('says a top-level problem in its own words, keeps an author’s, and zod’s below the top level', async () => {
    const zodsZip = z.string().length(5).safeParse('1').error?.issues[0]?.message;
    expect(await problems(wrong)).toEqual({
      seats: 'too large',
      email: 'not in the expected format',
      plan: 'not one of the accepted values',
      code: 'Use the three-letter code',
      pin: 'A PIN is four digits',
      'address.zip': (zodsZip ?? '').replace(/[\s.;:,]+$/, ''),
      when: 'missing',
    });
    expect(await problems({ ...wrong, seats: 'many', when: 'now' })).toMatchObject({ seats: 'not a number' });
  });

  it("keeps a project's own customError over our words", async () => {
    z.config({ customError: (issue) => (issue.code === 'too_big' ? 'Fewer, please' : undefined) });
    try {
      expect(await problems(wrong)).toMatchObject({ seats: 'Fewer, please', email: 'not in the expected format' });
    } finally {
      z.config({ customError: undefined });
    }
  });
});
