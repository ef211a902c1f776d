import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { confusableSiblings, lintFunctions } from '../../lint/index.ts';
import { fixtureProject, registered } from './registered.ts';

const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
const parameters = z.object({
  reference: z.string().max(12).describe('The booking reference, like "K7M2"'),
  phone: z.string().max(32).describe('The phone number of the booking, like "+44 7700 900123"'),
});
const alike = (name: string, extra = '') =>
  registered(name, {
    description: `Changes a booking of a consultation, found by its reference and phone number. Call it when the customer wants a different booking.${extra}`,
    parameters,
    annotations: write,
  });

describe('confusable siblings', () => {
  it('reports two functions whose descriptions and parameters are too alike', () => {
    const found = confusableSiblings([alike('change_booking'), alike('update_booking')]);
    expect(found).toEqual([
      expect.objectContaining({ rule: 'siblings-confusable', severity: 'error', function: 'change_booking' }),
    ]);
    expect(found[0]?.text).toMatch(/^change_booking ~ update_booking \(\d\.\d\d; shared: /);
  });

  it('accepts them once one description names the other as the alternative', () => {
    const resolved = [
      alike('change_booking', ' To move it to another day, use update_booking.'),
      alike('update_booking'),
    ];
    expect(confusableSiblings(resolved)).toEqual([]);
  });

  it('leaves a set whose siblings name each other with no unresolved pair', () => {
    const report = lintFunctions(fixtureProject().functions);
    expect(report.findings.filter((f) => f.category === 'siblings')).toEqual([]);
  });
});
