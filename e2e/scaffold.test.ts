// What `agent-functions new` writes passes a project's own checks as generated: tsc, biome, and its
// test in workerd, in a copy of the example project (node_modules shared).
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffold, scaffoldEvent } from '../scripts/new/main.ts';
import { functionNames, generate } from '../scripts/project/generated.ts';
import { copyProject } from '../scripts/test/project.ts';
import { userEnv } from './userShell.ts';

let dir: string;
beforeAll(() => {
  dir = copyProject();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (tool: string, args: string[]) => {
  const result = spawnSync(join(dir, 'node_modules', '.bin', tool), args, { cwd: dir, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe('agent-functions new, as generated', () => {
  it('writes a function and an event handler whose files type-check, pass biome and whose tests pass', () => {
    const name = `f${'x'.repeat(63)}`;
    const type = 'deal.moved';
    expect(scaffold(name, dir)).toEqual([`functions/${name}.ts`, `test/functions/${name}.test.ts`]);
    expect(scaffoldEvent(type, dir)).toEqual([`events/${type}.ts`, `test/events/${type}.test.ts`]);
    generate(dir);

    const tsc = run('tsc', ['-p', 'tsconfig.json']);
    expect(tsc.output).toBe('');
    const biome = run('biome', [
      'check',
      `functions/${name}.ts`,
      `test/functions/${name}.test.ts`,
      `events/${type}.ts`,
      `test/events/${type}.test.ts`,
    ]);
    expect(biome.status, biome.output).toBe(0);
    const vitest = run('vitest', [
      'run',
      '--project',
      'project',
      `test/functions/${name}.test.ts`,
      `test/events/${type}.test.ts`,
    ]);
    expect(vitest.status, vitest.output).toBe(0);
    expect(stripVTControlCharacters(vitest.output)).toMatch(/Tests\s+5 passed \(5\)/);
  });
});

describe('the quick test loop of the README', () => {
  it('sees a function made a moment ago, forgets a deleted one, and never reads .env', () => {
    // A fresh copy, nothing generated for it: what the user has after `npm run new` and deleting an example.
    const project = copyProject();
    try {
      rmSync(join(project, 'generated'), { recursive: true, force: true });
      expect(scaffold('tell_time', project)).toEqual(['functions/tell_time.ts', 'test/functions/tell_time.test.ts']);
      // One of the project's functions deleted with its test, whichever comes first.
      const deleted = functionNames(join(project, 'functions')).find((name) => name !== 'tell_time') as string;
      rmSync(join(project, 'functions', `${deleted}.ts`));
      rmSync(join(project, 'test', 'functions', `${deleted}.test.ts`), { force: true });
      // The .env that sync needs (docs/sync-and-accounts.md): the tests must not see it.
      writeFileSync(
        join(project, '.env'),
        'PLATFORM_BASE_URL=http://127.0.0.1:8788\nPLATFORM_API_KEY=k\nFUNCTIONS_BASE_URL=http://127.0.0.1:8787\nFUNCTIONS_SECRET=s\n',
      );
      const vitest = spawnSync(
        'npx',
        ['vitest', 'run', '--project', 'project', 'test/functions/tell_time.test.ts', 'test/events/examples.test.ts'],
        { cwd: project, encoding: 'utf8', env: userEnv() },
      );
      expect(vitest.status, `${vitest.stdout}${vitest.stderr}`).toBe(0);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
