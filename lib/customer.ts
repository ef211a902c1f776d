// How the examples take a customer's phone number and email from the model, and the one way they
// compare them, so "+44 7700 900123" and "+447700900123" are the same customer.
import { z } from 'zod';

/** International format after spaces, dots, dashes and brackets are dropped: "+447700900123". */
const E164 = /^\+[1-9]\d{6,14}$/;

/** The same number with spacing removed, or undefined when it is not an international number. */
export const normalizePhone = (text: string): string | undefined => {
  const compact = text.replace(/[\s().-]/g, '');
  return E164.test(compact) ? compact : undefined;
};

/**
 * A phone number argument: international format with the country code, spacing allowed.
 * @example z.object({ phone: phoneSchema('The customer\'s phone number') })
 */
export const phoneSchema = (description: string) =>
  z
    .string()
    .max(32)
    .refine((text) => normalizePhone(text) !== undefined, {
      message: 'not a phone number in international format with the country code, like "+44 7700 900123"',
    })
    .describe(description)
    .meta({ examples: ['+44 7700 900123'] });

/** An email argument, compared case-insensitively. */
export const emailSchema = (description: string) => z.email().max(254).describe(description);

/** An order number as the shop prints it ("10452" or "#10452"). */
export const orderNumberSchema = (description: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^#?[A-Za-z0-9-]+$/, 'an order number has only letters, digits and dashes')
    .describe(description)
    .meta({ examples: ['10452'] });

/** The one form of an email address used for comparison. */
export const normalizeEmail = (text: string): string => text.trim().toLowerCase();
