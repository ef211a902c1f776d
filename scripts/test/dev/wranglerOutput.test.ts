// What dev shows of wrangler dev's own output: its bindings table once, its types advice in the project's words.
import { describe, expect, it } from 'vitest';
import { wranglerOutput } from '../../dev/wranglerOutput.ts';

const table = (rows: string[]) =>
  [
    'Your Worker has access to the following bindings:',
    'Binding                          Resource            Mode',
    ...rows,
    '',
    '',
  ].join('\n');
const ROWS = [
  'env.CALENDAR (BookingCalendar)   Durable Object      local',
  'env.OAUTH_KV                     KV Namespace        local',
];

describe("dev's view of wrangler dev's output", () => {
  it('shows the bindings table once, again only when it changed, and every other line as it comes', () => {
    const out = wranglerOutput('npm run generate');
    const first = out.feed(
      `⎔ Starting local server...\n${table(ROWS)}[wrangler:info] Ready on http://localhost:8787\n`,
    );
    expect(first).toContain('env.CALENDAR');
    expect(first).toContain('[wrangler:info] Ready');
    // Reloads print it again, in pieces: nothing of it is shown.
    const again = table(ROWS);
    const reload = out.feed('⎔ Reloading local server...\n') + out.feed(again.slice(0, 30)) + out.feed(again.slice(30));
    expect(reload).toBe('⎔ Reloading local server...\n');
    const changed = out.feed(table([...ROWS, 'env.NEW_VAR ("x")              Environment Variable local']));
    expect(changed).toContain('env.NEW_VAR');
  });

  it("names the project's command where wrangler says to re-run wrangler types, and passes a partial line at once", () => {
    const out = wranglerOutput('npm run generate');
    expect(
      out.feed('❓ Your types might be out of date. Re-run `wrangler types` to ensure your types are correct.\n'),
    ).toBe('Your types might be out of date: run npm run generate (it runs wrangler types as this project needs).\n');
    expect(out.feed('[wrangler:info] GET /functions 200 OK')).toBe('[wrangler:info] GET /functions 200 OK');
    expect(out.feed(' (3ms)\n')).toBe(' (3ms)\n');
  });
});
