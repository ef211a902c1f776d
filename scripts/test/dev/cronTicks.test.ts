// Dev's cron ticks (scripts/dev/cronTicks.ts): the crons read from wrangler.toml, and wrangler's
// scheduled path called at the interval against a real local server, a failure said once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectCrons, startCronTicks } from '../../dev/cronTicks.ts';

const project = (toml: string) => {
  const root = mkdtempSync(join(tmpdir(), 'cron-ticks-'));
  writeFileSync(join(root, 'wrangler.toml'), toml);
  return root;
};

describe('projectCrons', () => {
  it("reads the top-level [triggers]' crons, and none without them", () => {
    expect(projectCrons(project('name = "w"\n\n[triggers]\ncrons = ["* * * * *", "0 3 * * *"]\n'))).toEqual([
      '* * * * *',
      '0 3 * * *',
    ]);
    expect(projectCrons(project('name = "w"\n[vars]\nA = "1"\n'))).toEqual([]);
    expect(projectCrons(join(tmpdir(), 'no-such-project-dir'))).toEqual([]);
  });
});

describe('startCronTicks', () => {
  it("calls wrangler's scheduled path with the cron at every interval, and says once that it fails", async () => {
    const seen: string[] = [];
    let status = 500;
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const warnings: string[] = [];
    const ticks = startCronTicks({ origin, cron: '* * * * *', warn: (text) => warnings.push(text), intervalMs: 40 });
    try {
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
      status = 200;
      const after = seen.length;
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(after + 2);
    } finally {
      ticks.close();
      server.close();
    }
    expect(seen[0]).toBe('/cdn-cgi/local/scheduled?cron=*%20*%20*%20*%20*');
    expect(warnings).toEqual([expect.stringContaining("the cron's run (alerts) failed: answered 500")]);
  });

  it('falls back to /__scheduled where the newer path is not served', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.writeHead(request.url?.startsWith('/__scheduled') ? 200 : 404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const warnings: string[] = [];
    const ticks = startCronTicks({ origin, cron: '* * * * *', warn: (text) => warnings.push(text), intervalMs: 40 });
    try {
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    } finally {
      ticks.close();
      server.close();
    }
    expect(seen.slice(0, 3).map((url) => url.split('?')[0])).toEqual([
      '/cdn-cgi/local/scheduled',
      '/__scheduled',
      '/__scheduled',
    ]);
    expect(warnings).toEqual([]);
  });
});
