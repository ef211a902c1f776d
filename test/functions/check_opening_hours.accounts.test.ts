// check_opening_hours serving two client businesses from one Worker (test/twoAccounts.ts): each
// answers in its own timezone, a setting of its account.
import { describe, expect, it } from 'vitest';
import { agency, clientB } from '../twoAccounts.ts';

describe('check_opening_hours for two client businesses on one Worker', () => {
  it("answers in each business's own timezone", async () => {
    const response = await clientB.call('check_opening_hours', {});
    expect(await response.json()).toMatchObject({ timezone: 'Asia/Tokyo' });
    expect(await (await agency.call('check_opening_hours', {})).json()).toMatchObject({ timezone: 'Europe/London' });
  });
});
