// The headless Chromium the e2e tests drive (the one npm install brings), and the dev console
// opened in it the way a user opens it.
import chromium from '@sparticuz/chromium';
import { type Browser, type Page, chromium as playwright } from 'playwright-core';

/** A headless Chromium; close it when done. */
export const launchBrowser = async (): Promise<Browser> =>
  playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });

/** The console at `url` in a new page of `browser`, once it says it is ready. */
export const openConsole = async (browser: Browser, url: string): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
};
