// What `agent-functions new` writes passes a project's own checks as generated: tsc, biome, and its
// test in workerd, in a copy of the example project (node_modules shared).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffold, scaffoldEvent } from '../scripts/new/main.ts';
import { generate } from '../scripts/project/generated.ts';
import { copyProject } from '../scripts/test/project.ts';

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
