// The examples under `npm run dev` as a newcomer meets it (.env and .dev.vars copied from their
// examples): every one answers valid arguments, wired to dev's local platform and the stand-ins of
// the project's dev.config.ts (the team inbox, the order store). It calls the examples that are
// still there, so removing some (README "Removing the examples") needs no edit here, and a
// function of the user's own beside them (one is added) changes nothing; e2e/dev.test.ts tests dev
// itself on the fixture functions. A browser follows a deferred example in dev's console.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_ORDERS } from '../dev/orderStore.ts';
import { addDays, CALENDAR, localDate, slotsOn } from '../lib/slots.ts';
import { scaffold } from '../scripts/new/main.ts';
import { type DevRun, newcomerFiles, startDev } from '../scripts/test/dev/harness.ts';
import { copyProject } from '../scripts/test/project.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { launchBrowser, openConsole } from './browser.ts';

/** The examples: the names in the first column of the README's Examples table. */
const EXAMPLES = new Set(
  [
    ...(
      /^## Examples\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8'))?.[1] ??
      ''
    ).matchAll(/^\| `([a-z][a-z0-9_]*)` \|/gm),
  ].map((match) => match[1] as string),
);

let dev: DevRun;

beforeAll(async () => {
  const dir = copyProject(newcomerFiles());
  // A function of the user's own, written with `npm run new` and given a real description.
  scaffold('answer_faq', dir);
  const file = join(dir, 'functions', 'answer_faq.ts');
  const text = readFileSync(file, 'utf8').replace(
    /'Replace this:[^']*'/,
    "'Answers a question about the shop. Call it when the customer asks one.'",
  );
  writeFileSync(file, text);
  dev = await startDev(dir);
  await dev.waitFor(/edit functions\/ or events\/ and it re-syncs/);
}, 180_000);

afterAll(async () => {
  await dev?.stop();
  if (dev) rmSync(dev.dir, { recursive: true, force: true });
});

describe('the examples under npm run dev', () => {
  it("answers 200 to valid arguments for every example it serves, the README's keyless curl first, wired to the local platform and store", async () => {
    // The examples still in functions/: removing some (README "Removing the examples") leaves the rest tested.
    const listed = (await (await fetch(`${dev.origin}/functions`)).json()) as { functions: { name: string }[] };
    const served = new Set(listed.functions.map((fn) => fn.name));
    const phone = '+14155550123';
    const answers: Record<string, number> = {};
    const call = async (name: string, args: unknown) => {
      const { status, body } = await dev.post(name, args);
      answers[name] = status;
      expect(status, `${name}: ${JSON.stringify(body)}`).toBe(200);
      return body;
    };
    if (served.has('quote_price')) {
      expect((await call('quote_price', { plan: 'growth', seats: 3 })).totalCents).toBe(8700);
    }
    if (served.has('check_opening_hours')) await call('check_opening_hours', {});
    // The booking examples build on each other: free slots (from check_availability, else from the
    // calendar's own rules), a booking, then its change and cancellation. One that is served
    // without the booking it needs is still called, and must answer its own "not found".
    let starts: string[];
    if (served.has('check_availability')) {
      const availability = (await call('check_availability', { days: 14 })) as {
        days: { slots: { start: string }[] }[];
      };
      starts = availability.days.flatMap((day) => day.slots.map((slot) => slot.start));
    } else {
      starts = Array.from({ length: 14 }, (_, i) => addDays(localDate(Date.now(), CALENDAR.timezone), i + 3))
        .flatMap((date) => slotsOn(CALENDAR, date))
        .map((slot) => slot.local);
    }
    const [first, second] = starts;
    const booking = served.has('book_appointment')
      ? await call('book_appointment', { start: first, name: 'Ada Lovelace', phone })
      : undefined;
    const change = async (name: string, args: Record<string, unknown>) => {
      if (booking) return call(name, { reference: booking.reference, phone, ...args });
      const { status, body } = await dev.post(name, { reference: 'ABCD-EFGH', phone, ...args });
      answers[name] = status;
      expect(status, `${name}: ${JSON.stringify(body)}`).toBe(404);
    };
    if (served.has('reschedule_appointment')) await change('reschedule_appointment', { newStart: second });
    if (served.has('cancel_appointment')) await change('cancel_appointment', {});
    if (served.has('get_order_status')) {
      const order = SAMPLE_ORDERS[0] as { number: string; email: string };
      expect(await call('get_order_status', { orderNumber: order.number, email: order.email })).toMatchObject({
        status: 'shipped',
      });
    }
    if (served.has('capture_lead')) {
      await call('capture_lead', { name: 'Grace Hopper', phone, need: 'A chatbot for our three shops' });
    }
    if (served.has('handoff_to_human')) {
      await call('handoff_to_human', {
        summary: 'Ada asks for a person about rescheduling her consultation',
        reason: 'customer_asked',
      });
    }
    if (served.has('refund_payment')) {
      // Below its approval threshold: refunded at once by dev's order store.
      expect(await call('refund_payment', { orderNumber: '10452', amountEuros: 12 })).toMatchObject({ refunded: true });
    }
    // Every example dev serves was called; the user's own function is served beside them, and not this test's.
    expect(EXAMPLES.size).toBeGreaterThan(0);
    expect(served.has('answer_faq')).toBe(true);
    expect(Object.keys(answers).sort()).toEqual([...served].filter((name) => EXAMPLES.has(name)).sort());
  }, 60_000);
});

describe('a deferred example in the console of npm run dev', () => {
  it("shows get_order_status's interim answer at once, and the customer's follow-up later under that call, not under a call made meanwhile", async () => {
    const listed = (await (await fetch(`${dev.origin}/functions`)).json()) as { functions: { name: string }[] };
    // Removed with the examples (README "Removing the examples"): nothing to show.
    if (!listed.functions.some((fn) => fn.name === 'get_order_status')) return;
    // The order the store stand-in takes 5 s for (dev/orderStore.ts), past the 2.5 s answer deadline,
    // and one it answers at once.
    const slow = SAMPLE_ORDERS.find((order) => 'slowMs' in order) as { number: string; email: string };
    const quick = SAMPLE_ORDERS[0] as { number: string; email: string };
    const consoleUrl = (await dev.waitFor(/^console: (http:\/\/127\.0\.0\.1:\d+\/)$/m))[1] as string;
    const browser = await launchBrowser();
    try {
      const page = await openConsole(browser, consoleUrl);

      // As a user would: the function's own form.
      const fn = page.locator('section.fn[data-name="get_order_status"]');
      const call = async (order: { number: string; email: string }) => {
        await fn.locator('[data-arg="orderNumber"]').fill(order.number);
        await fn.locator('[data-arg="email"]').fill(order.email);
        const clicked = Date.now();
        await fn.getByRole('button', { name: 'Call get_order_status' }).click();
        await fn.locator(`.result[data-status="200"]`).waitFor({ timeout: 10_000 });
        return Date.now() - clicked;
      };
      // The interim answer, well before the store's 5 s.
      expect(await call(slow)).toBeLessThan(4_500);
      expect(await fn.locator('.result .body').textContent()).toContain('"status": "pending"');
      expect(await fn.locator('.result .body').textContent()).toContain('checking with the warehouse');

      // Its entry in the activity, known by its arguments: the interim the model got, and a follow-up awaited.
      const entryOf = (number: string) =>
        page.locator('#calls tr[data-kind="call"][data-source="console"]', { hasText: `"orderNumber":"${number}"` });
      const entry = entryOf(slow.number);
      await expect.poll(() => entry.count(), { timeout: 5_000 }).toBe(1);
      expect(await entry.textContent()).toContain('checking with the warehouse');
      expect(await entry.locator('.deferred').allTextContents()).toEqual([
        expect.stringMatching(/^deferred: the model got the interim answer/),
        expect.stringMatching(/^waiting for the follow-up \(\d+ s so far\)$/),
      ]);

      // Meanwhile the user checks another order, which answers at once: its own entry, newer.
      await call(quick);
      const other = entryOf(quick.number);
      await expect.poll(() => other.count(), { timeout: 5_000 }).toBe(1);
      expect(await other.textContent()).toContain('on its way');

      // The follow-up reaches the customer when the store answers: under the deferred call's entry.
      const followUp = `Order ${slow.number} is being prepared. It contains 4 × Mug.`;
      await expect
        .poll(() => entry.locator('.sent').allTextContents(), { timeout: 30_000, interval: 500 })
        .toContainEqual(expect.stringContaining(followUp));
      const shown = (await entry.locator('.sent', { hasText: followUp }).textContent()) ?? '';
      expect(shown).toMatch(/^follow-up sent to Console customer \(ct_\w+\) via whatsapp \(\d+\.\d s later\): /);
      // Sent: no longer waiting.
      expect(await entry.locator('.deferred').allTextContents()).toEqual([
        expect.stringMatching(/^deferred: the model got the interim answer/),
      ]);
      // Once, there: not under the call made meanwhile, nor on a line of its own.
      expect(await page.locator('#calls .sent', { hasText: followUp }).count()).toBe(1);
      expect(await other.locator('.sent').count()).toBe(0);

      mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true });
      await entry.screenshot({ path: join(PROJECT_ROOT, 'test-results', 'console-follow-up.png') });
    } finally {
      await browser.close();
    }
  }, 90_000);
});
