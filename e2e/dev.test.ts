// `npm run dev` as a newcomer meets it: .env and .dev.vars copied from their examples (README steps),
// the console driven in a real headless browser, and a broken definition and a broken file written
// while it runs. It serves the fixture functions (scripts/test/project.ts), so it passes whatever
// functions/ holds; e2e/examples.test.ts calls the examples under dev.
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPlatformClient } from 'agent-functions/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevRun, newcomerFiles, startDev } from '../scripts/test/dev/harness.ts';
import { FIXTURE_NAMES, fixtureProject } from '../scripts/test/project.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { launchBrowser, openConsole } from './browser.ts';

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
    const browser = await launchBrowser();
    try {
      const page = await openConsole(browser, consoleUrl);
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
      // And the curl line, a call straight at the Worker, known from the Worker's own log line.
      expect(await page.locator('#calls tr[data-source="worker"]').count()).toBeGreaterThanOrEqual(1);
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
    // Left out, so not served: under dev that is "try again", never "no longer deployed".
    const left = await dev.post('zz_typo', {});
    expect(left.status).toBe(503);
    expect(JSON.stringify(left.body)).toContain('"code":"not_served_now"');
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

/** A function file with this description. */
const definition = (description: string) =>
  [
    "import { z } from 'zod';",
    "import { defineFunction } from 'agent-functions';",
    'export default defineFunction({',
    `  description: '${description}',`,
    '  parameters: z.object({}),',
    '  handler: () => ({}),',
    '});',
    '',
  ].join('\n');

/** dev's local platform, as its start-up line names it. */
const platform = () => {
  const [, baseUrl = '', apiKey = ''] =
    /local platform on (\S+) \(Agency account key: (\S+)\)/.exec(dev.output()) ?? [];
  return createPlatformClient({ baseUrl, apiKey });
};
const registered = async (name: string) => (await platform().customFunctions.list()).find((fn) => fn.name === name);
const descriptionOf = async (name: string) => (await registered(name))?.description;
const POLL = { timeout: 60_000, interval: 500 };

describe('npm run dev keeps the platform in step with the Worker', () => {
  it('sees a save by rename (vim, JetBrains safe write, sed -i) and registers the new description', async () => {
    const file = join(dev.dir, 'functions', 'zz_saved.ts');
    writeFileSync(file, definition('First words. Call it never.'));
    await expect.poll(() => descriptionOf('zz_saved'), POLL).toContain('First words');
    // As sed -i does, save after save: a new file beside it, renamed over it.
    for (const words of ['Second words', 'Third words', 'Fourth words']) {
      const temp = join(dev.dir, 'functions', 'sedX4b2c9');
      writeFileSync(temp, definition(`${words}. Call it never.`));
      renameSync(temp, file);
      await expect.poll(() => descriptionOf('zz_saved'), POLL).toContain(words);
    }
  }, 150_000);

  it('notices after a reload that the platform no longer holds what the Worker serves, says so and syncs it back', async () => {
    const record = await registered('zz_saved');
    expect(record).toBeDefined();
    await platform().customFunctions.update(record?.id as string, {
      description: 'Changed behind dev. Call it never.',
    });
    // Any reload: a helper file that changes no function.
    writeFileSync(join(dev.dir, 'functions', '_zz_helper.ts'), 'export const helper = 1;\n');
    await dev.waitFor(/the local platform's zz_saved differs from what the Worker serves \(description\)/, 60_000);
    await expect.poll(() => descriptionOf('zz_saved'), POLL).toContain('Fourth words');
    rmSync(join(dev.dir, 'functions', 'zz_saved.ts'));
    await expect.poll(() => registered('zz_saved'), POLL).toBeUndefined();
  }, 150_000);

  it('keeps the last good registration of a function whose file stops building, and says so', async () => {
    const file = join(dev.dir, 'functions', 'zz_kept.ts');
    writeFileSync(file, definition('Kept words. Call it never.'));
    await expect.poll(() => descriptionOf('zz_kept'), POLL).toContain('Kept words');
    const before = dev.output().length;
    writeFileSync(file, 'export default {\n  description: "x",,\n};\n');
    await dev.waitFor(/zz_kept keeps its last good registration on the local platform/, 60_000);
    // Long enough for a reload and a sync that would delete it.
    await sleep(8000);
    expect(dev.output().slice(before)).not.toMatch(/- delete +zz_kept|deleted [^\n]*\bzz_kept\b/);
    expect(await descriptionOf('zz_kept')).toContain('Kept words');
    // What the model gets meanwhile: try again, not "no longer deployed".
    const call = await dev.post('zz_kept', {});
    expect(call.status).toBe(503);
    expect(JSON.stringify(call.body)).toContain('Try again in a minute');
    // A file removed is a function gone: that one is deleted.
    rmSync(file);
    await expect.poll(() => registered('zz_kept'), POLL).toBeUndefined();
  }, 150_000);

  it('names a file whose name is no function name in the one line of start-up, and keeps serving the rest', async () => {
    const before = dev.output().length;
    const file = join(dev.dir, 'functions', 'Quote-Price.ts');
    writeFileSync(file, definition('A bad name. Call it never.'));
    await dev.waitFor(/functions\/Quote-Price\.ts: a function's file name is its name on the platform/, 60_000);
    await sleep(3000);
    const said = dev.output().slice(before);
    expect(said).not.toMatch(/^\s+at /m);
    expect(said).not.toMatch(/Error:/);
    expect((await dev.post('quote_plan', { plan: 'growth', seats: 3 })).status).toBe(200);
    rmSync(file);
    await dev.waitFor(/every file builds again|every function file has a valid name again/, 60_000);
    expect((await dev.post('quote_plan', { plan: 'growth', seats: 3 })).status).toBe(200);
  }, 150_000);
});
