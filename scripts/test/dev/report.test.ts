import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReporter } from '../../dev/report.ts';

const GOOD = "export default { description: 'ok' };\n";
const TYPO = 'export default {\n  description: "x",,\n};\n';

describe("what dev prints about the project's files before a reload", () => {
  it('names a bad file name and a broken file once each, says whose registration is kept, and says when each is fixed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-report-'));
    mkdirSync(join(dir, 'functions'));
    writeFileSync(join(dir, 'wrangler.toml'), 'main = "worker.ts"\n');
    writeFileSync(join(dir, 'worker.ts'), 'export default {};\n');
    writeFileSync(join(dir, 'functions', 'good.ts'), GOOD);
    writeFileSync(join(dir, 'functions', 'kept.ts'), TYPO);
    writeFileSync(join(dir, 'functions', 'Bad-Name.ts'), GOOD);
    const lines: string[] = [];
    const report = buildReporter(dir, {
      say: (text) => lines.push(`say ${text}`),
      fail: (text) => lines.push(`fail ${text.split('\n')[0]}`),
      registered: (name) => name === 'kept',
    });
    await report();
    await report();
    expect(lines).toEqual([
      "fail functions/Bad-Name.ts: a function's file name is its name on the platform and must be snake_case (/^[a-z][a-z0-9_]{0,63}$/), e.g. functions/check_order.ts (left out; the other functions are still served)",
      'fail functions/kept.ts does not build, so the Worker leaves it out; kept keeps its last good registration on the local platform, and calls to it answer 503 (try again) until the file builds again:',
    ]);
    lines.length = 0;
    rmSync(join(dir, 'functions', 'Bad-Name.ts'));
    writeFileSync(join(dir, 'functions', 'kept.ts'), GOOD);
    await report();
    expect(lines).toEqual([
      'say every function file has a valid name again.',
      'say functions/kept.ts builds again.',
      'say every file builds again.',
    ]);
    rmSync(dir, { recursive: true, force: true });
  });
});
