// The scaffold: what it refuses, what it writes, and what it prints. That what it writes passes a
// project's own checks (tsc, biome, its test in workerd) is e2e/scaffold.test.ts's part.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventRefusal, main, refusal, scaffold, scaffoldEvent } from '../new/main.ts';
import { runMain } from './capture.ts';

/** An empty project folder: functions/ and test/functions/. */
const scratchProject = () => {
  const dir = mkdtempSync(join(tmpdir(), 'new-function-'));
  mkdirSync(join(dir, 'functions'));
  mkdirSync(join(dir, 'test', 'functions'), { recursive: true });
  return dir;
};

/** `agent-functions new <args>` in this process: its exit code and what it printed. */
const cli = (...args: string[]) => runMain(main, args);

let dir: string;
beforeEach(() => {
  dir = scratchProject();
});

describe('npm run new', () => {
  it.each([
    ['BadName', 'Try "bad_name"'],
    ['lookup-order', 'Try "lookup_order"'],
    ['1st_function', 'snake_case'],
    ['_helper', 'snake_case'],
    ['a'.repeat(65), 'at most 64'],
    ['', 'snake_case'],
  ])('refuses the invalid name "%s", saying what a valid one looks like', (name, words) => {
    expect(refusal(name, dir)).toContain(words);
  });

  it.each(['class', 'delete', 'functions'])('refuses "%s", which the generated registry cannot import', (name) => {
    expect(refusal(name, dir)).toContain('reserved word');
  });

  it('refuses a name that is taken, and never overwrites', () => {
    writeFileSync(join(dir, 'functions', 'lookup_order.ts'), 'mine');
    expect(() => scaffold('lookup_order', dir)).toThrow('functions/lookup_order.ts already exists');
    expect(readFileSync(join(dir, 'functions', 'lookup_order.ts'), 'utf8')).toBe('mine');
    writeFileSync(join(dir, 'test', 'functions', 'other.test.ts'), 'mine');
    expect(() => scaffold('other', dir)).toThrow('other.test.ts already exists');
  });

  it('prints the next steps without colours when the output is not a terminal', () => {
    const run = cli('lookup_order', '--root', dir);
    expect(run.status).toBe(0);
    for (const step of [
      'functions/lookup_order.ts',
      'npm test',
      'npm run dev',
      'curl',
      'npm run deploy',
      'npm run sync',
    ]) {
      expect(run.stdout).toContain(step);
    }
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('exits 1 with a clear message, creating nothing, for a refused name', () => {
    const run = cli('Lookup', '--root', dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Nothing was created: "Lookup" is not a valid function name');
    expect(readdirSync(join(dir, 'functions')).filter((f) => !f.startsWith('_'))).toEqual([]);
  });

  it('--help says what npm test makes of the scaffold: it fails until the placeholder description is replaced', () => {
    const help = cli('--help').stdout.replace(/\s+/g, ' ');
    expect(help).not.toContain('passes npm test as generated');
    expect(help).toContain("npm test fails on the scaffold's placeholder description until you write your own");
  });

  it('says, where the new function is written, how a new secret gets its type: npm run generate', () => {
    const run = cli('read_secret_fn', '--root', dir);
    expect(run.status).toBe(0);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      "A new secret or var? Declare it (secrets: ['NAME']), add NAME= to .dev.vars.example, then npm run generate",
    );
    const source = readFileSync(join(dir, 'functions', 'read_secret_fn.ts'), 'utf8');
    expect(source).toContain('npm run generate');
  });

  it('shows usage for --help (exit 0) and for a missing name or unknown option (exit 2)', () => {
    expect(cli('--help').stdout).toContain('Usage: agent-functions new <name>');
    expect(cli('--help').status).toBe(0);
    expect(cli('--root', dir).status).toBe(2);
    expect(cli('x', '--force', '--root', dir).stderr).toContain('Unknown option --force');
  });

  describe('--event', () => {
    it.each(['Appointment.Booked', 'booked', 'appointment-booked', 'appointment.', '.booked'])(
      'refuses "%s", which is not an event type name',
      (type) => {
        expect(eventRefusal(type, dir)).toContain('is not an event type name');
      },
    );

    it('refuses a type that is taken, and never overwrites', () => {
      const type = 'appointment.booked';
      expect(scaffoldEvent(type, dir)).toEqual([`events/${type}.ts`, `test/events/${type}.test.ts`]);
      expect(() => scaffoldEvent(type, dir)).toThrow(`events/${type}.ts already exists`);
    });

    it('prints the next steps, emit and sync included', () => {
      const run = cli('--event', 'deal.moved', '--root', dir);
      expect(run.status, run.stderr).toBe(0);
      for (const step of ['events/deal.moved.ts', 'npm test', 'emit deal.moved', 'npm run sync']) {
        expect(run.stdout).toContain(step);
      }
    });

    it('refuses a function name and --event together', () => {
      expect(cli('lookup_order', '--event', 'deal.moved', '--root', dir).status).toBe(2);
    });
  });
});

describe('the scaffolded function', () => {
  it("is a look-up that runs on every call (effect: 'read'), with a comment saying when to make it a write", async () => {
    const { functionTemplate } = await import('../project/templates.ts');
    const { PROJECT_ROOT } = await import('./repo.ts');
    const { rmSync } = await import('node:fs');
    const source = functionTemplate('tell_time');
    // Where the module resolves agent-functions and zod as a project's file does.
    const folder = mkdtempSync(join(PROJECT_ROOT, 'node_modules', '.scaffold-'));
    try {
      writeFileSync(join(folder, 'tell_time.ts'), source);
      const { default: definition } = (await import(join(folder, 'tell_time.ts'))) as {
        default: { effect?: string };
      };
      expect(definition.effect).toBe('read');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(source).toMatch(/\/\/.*'write'.*\n(.*\/\/.*\n)*\s+effect: 'read',/);
    expect(source).toContain('docs/functions.md');
  });
});
