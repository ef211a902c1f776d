// `npm run dev` as a newcomer meets it: .env and .dev.vars copied from their examples (README steps),
// the console driven in a real headless browser, and a broken definition and a broken file written
// while it runs. It serves the fixture functions (scripts/test/project.ts), so it passes whatever
// functions/ holds; e2e/examples.test.ts calls the examples under dev.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import chromium from '@sparticuz/chromium';
import { chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevRun, newcomerFiles, startDev } from '../scripts/test/dev/harness.ts';
import { FIXTURE_NAMES, fixtureProject } from '../scripts/test/project.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';

/** Where the browser test leaves its screenshot (git-ignored). */
const SCREENSHOT = join(PROJECT_ROOT, 'test-results', 'console.png');

let dev: DevRun;
let consoleUrl: string;

beforeAll(async () => {
  dev = await startDev(fixtureProject(newcomerFiles()));
  consoleUrl = (await dev.waitFor(/^console: (http:\/\/127\.0\.0\.1:\d+\/)$/m))[1] as string;
  await dev.waitFor(/edit functions\/ or events\/ and it re-syncs/);
}, 180_000);

afterAll(async () => {
  await dev?.stop();
  if (dev) rmSync(dev.dir, { recursive: true, force: true });
});

describe('npm run dev, with .env and .dev.vars copied from their examples', () => {
  it('says that .env is not read by the local Worker', () => {
    expect(dev.output()).toMatch(
      /\.env is for npm run sync; the local Worker does not read it \(.*FUNCTIONS_SECRET.*ignored here\)/,
    );
  });

  it('prints call lines that answer 200 when pasted into a shell', () => {
    const platformLine = /^ {2}(npm run platform -- call .*)$/m.exec(dev.output())?.[1] ?? '';
    const curlLine = /^ {2}(curl -s -X POST .*)$/m.exec(dev.output())?.[1] ?? '';
    const platform = spawnSync('sh', ['-c', platformLine], { cwd: dev.dir, encoding: 'utf8' });
    expect(platform.stdout).toMatch(/^200 in \d+ ms$/m);
    expect(platform.status).toBe(0);
    const curl = spawnSync('sh', ['-c', `${curlLine} -w '\\n%{http_code}'`], { cwd: dev.dir, encoding: 'utf8' });
    expect(curl.stdout.trim().split('\n').at(-1)).toBe('200');
    expect(curl.stdout).toContain('"totalCents"');
  }, 60_000);
});

describe('the console', () => {
  it('lists what the platform received, calls a function from its form, and shows a 200 and a 422 with what the model got', async () => {
    const browser = await playwright.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(consoleUrl);
      await page.waitForSelector('body[data-ready="true"]');
      const names = await page.locator('section.fn h2').allTextContents();
      expect(names).toEqual(FIXTURE_NAMES);

      const fn = page.locator('section.fn[data-name="quote_plan"]');
      await expect.poll(() => fn.locator('.description').textContent()).toContain('Parameters:');
      expect(await fn.locator('.url').textContent()).toMatch(/\/functions\/quote_plan\?key=\*\*\*$/);
      expect(await fn.locator('table').textContent()).toContain('seatsnumber');
      // The description linter's findings beside the function (it has no golden prompts).
      expect(await fn.locator('.finding').allTextContents()).toContainEqual(
        expect.stringContaining('[golden-missing]'),
      );

      await fn.locator('[data-arg="plan"]').selectOption({ label: 'growth' });
      await fn.locator('[data-arg="seats"]').fill('3');
      await fn.getByRole('button', { name: 'Call quote_plan' }).click();
      await fn.locator('.result[data-status="200"]').waitFor();
      expect(await fn.locator('.result .body').textContent()).toContain('"totalCents": 8700');

      await fn.locator('[data-arg="seats"]').fill('');
      await fn.getByRole('button', { name: 'Call quote_plan' }).click();
      await fn.locator('.result[data-status="422"]').waitFor();
      expect(await fn.locator('.result .message').textContent()).toContain(
        '"seats" (How many users will need access) is missing',
      );

      const log = page.locator('#calls tr[data-source="console"]');
      await expect.poll(() => log.count()).toBe(2);
      // The call pasted from dev's output (npm run platform -- call) is there too, as the platform's.
      expect(await page.locator('#calls tr[data-source="platform"]').count()).toBeGreaterThanOrEqual(1);
      expect(await log.nth(0).getAttribute('data-status')).toBe('422');
      expect(await log.nth(1).getAttribute('data-status')).toBe('200');
      expect(await log.nth(0).textContent()).toContain('"code":"invalid_arguments"');

      mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
    } finally {
      await browser.close();
    }
  }, 120_000);
});

describe('npm run dev, when a function file is broken', () => {
  it("prints a definition's message and keeps serving the other functions", async () => {
    writeFileSync(
      join(dev.dir, 'functions', 'zz_union.ts'),
      [
        "import { z } from 'zod';",
        "import { defineFunction } from 'agent-functions';",
        'export default defineFunction({',
        "  description: 'Takes an id that is a number or a word. Call it never.',",
        "  parameters: z.object({ id: z.union([z.string(), z.number()]).describe('The id') }),",
        '  handler: () => ({}),',
        '});',
        '',
      ].join('\n'),
    );
    await dev.waitFor(/zz_union.*\n?.*nothing is synced until this is fixed/, 60_000);
    expect(dev.output()).toMatch(/zz_union[^\n]*"id"/);
    expect((await dev.post('quote_plan', { plan: 'growth', seats: 3 })).status).toBe(200);
    rmSync(join(dev.dir, 'functions', 'zz_union.ts'));
  }, 90_000);

  it("prints a file's build error, leaves that file out, and keeps serving the others", async () => {
    rmSync(join(dev.dir, 'functions', 'zz_union.ts'), { force: true });
    writeFileSync(join(dev.dir, 'functions', 'zz_typo.ts'), 'export default {\n  description: "x",,\n};\n');
    await dev.waitFor(/functions\/zz_typo\.ts does not build, so it is left out/, 60_000);
    expect(dev.output()).toContain('functions/zz_typo.ts:2:19:');
    // Served again after wrangler's reload, within seconds, not minutes.
    const started = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - started < 30_000) {
      status = await dev
        .post('quote_plan', { plan: 'growth', seats: 3 })
        .then((r) => r.status)
        .catch(() => 0);
      if (status !== 200) await sleep(500);
    }
    expect(status).toBe(200);
    expect((await dev.post('zz_typo', {})).status).toBe(404);
  }, 90_000);

  it('re-syncs the events webhook when a file in events/ is added or removed', async () => {
    const file = join(dev.dir, 'events', 'deal.moved.ts');
    writeFileSync(
      file,
      [
        "import { z } from 'zod';",
        "import { defineEvent } from 'agent-functions';",
        "export default defineEvent({ type: 'deal.moved', payload: z.looseObject({}), handler: () => {} });",
        '',
      ].join('\n'),
    );
    await dev.waitFor(/\+ deal\.moved \(event\)/, 60_000);
    rmSync(file);
    await dev.waitFor(/- deal\.moved \(event\)/, 60_000);
  }, 150_000);
});
