// The one piece of business logic both benchmark Workers run, so the project/baseline ratio
// measures the plumbing around it, not different work.

/** The plans a quote can be for. */
export const PLANS = ['starter', 'growth', 'scale'] as const;

/** How often the customer pays. */
export const BILLING = ['monthly', 'yearly'] as const;

/** Seats a quote may cover. */
export const SEATS = { min: 1, max: 500 } as const;

/** Longest free-text note the customer may add. */
export const NOTES_MAX = 500;

/** Name of the benchmarked function in both Workers. */
export const QUOTE_FUNCTION = 'quote_seats';

const PRICE_CENTS: Record<(typeof PLANS)[number], number> = { starter: 900, growth: 2900, scale: 7900 };

/** The validated arguments of a quote. */
export interface QuoteArgs {
  plan: (typeof PLANS)[number];
  seats: number;
  billing: (typeof BILLING)[number];
  email: string;
  notes?: string | undefined;
}

/**
 * The quote itself: a few multiplications and one string.
 * @example quote({ plan: 'growth', seats: 3, billing: 'monthly', email: 'a@example.com' }).totalCents // 8700
 */
export const quote = ({ plan, seats, billing, email }: QuoteArgs) => {
  const monthly = PRICE_CENTS[plan] * seats;
  const totalCents = billing === 'yearly' ? Math.round(monthly * 12 * 0.8) : monthly;
  return { plan, seats, billing, email, totalCents, summary: `${plan} for ${seats} seats, ${billing}` };
};
