// The scaffold: what it refuses, what it writes, and that what it writes passes the project's own
// checks (tsc, biome, the description the platform will see) in a scratch project.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventsSource } from '../generate.ts';
import { eventRefusal, refusal, scaffold, scaffoldEvent } from '../new/main.ts';
import { DEFAULT_EVENTS_ACCOUNTS } from 'agent-functions/events';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = (tool: string) => join(repo, 'node_modules', '.bin', tool);

/** This project's biome settings for a scratch folder that is no git checkout (so no .gitignore to follow). */
const writeScratchBiome = (dir: string) => {
  const settings = JSON.parse(readFileSync(join(repo, 'biome.json'), 'utf8')) as Record<string, unknown>;
  delete settings.vcs;
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(settings));
};

/** A scratch project sharing this one's code and tools, with empty functions/ folders. */
const scratchProject = () => {
  const dir = mkdtempSync(join(tmpdir(), 'new-function-'));
  for (const link of ['node_modules', 'src', 'lib']) symlinkSync(join(repo, link), join(dir, link));
  mkdirSync(join(dir, 'functions'));
  // Shared helpers (src/ imports the calendar's Durable Object type from one).
  for (const file of readdirSync(join(repo, 'functions')).filter((f) => f.startsWith('_'))) {
    symlinkSync(join(repo, 'functions', file), join(dir, 'functions', file));
  }
  mkdirSync(join(dir, 'test', 'worker', 'functions'), { recursive: true });
  symlinkSync(join(repo, 'test', 'worker', 'helpers.ts'), join(dir, 'test', 'worker', 'helpers.ts'));
  writeScratchBiome(dir);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(repo, 'tsconfig.json'), include: ['functions', 'test/functions'] }),
  );
  return dir;
};

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [join(repo, 'scripts', 'new.ts'), ...args], { encoding: 'utf8' });

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
    writeFileSync(join(dir, 'test', 'worker', 'functions', 'other.test.ts'), 'mine');
    expect(() => scaffold('other', dir)).toThrow('other.test.ts already exists');
  });

  it('writes a function and its test that type-check, pass biome, and describe cleanly to the platform', async () => {
    const name = `f${'x'.repeat(63)}`;
    expect(scaffold(name, dir)).toEqual([`functions/${name}.ts`, `test/functions/${name}.test.ts`]);

    const tsc = spawnSync(process.execPath, [bin('tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    const biome = spawnSync(bin('biome'), ['check', 'functions', 'test'], { cwd: dir, encoding: 'utf8' });
    expect(biome.status, biome.stdout + biome.stderr).toBe(0);

    // Imported by path: src/ is Worker code, type-checked by the Worker's tsconfig, not this one.
    const load = (path: string) => import(pathToFileURL(path).href);
    const module = (await load(join(dir, 'functions', `${name}.ts`))) as {
      default: { handler: (args: unknown, context: unknown) => unknown };
    };
    const { describeFunction } = (await load(join(repo, 'src', 'describe.ts'))) as {
      describeFunction: (name: string, definition: unknown) => { parameters: unknown; description: string };
    };
    const manifest = describeFunction(name, module.default);
    expect(manifest.parameters).toEqual({ question: 'string' });
    expect(manifest.description).toContain("- question (required, string): 1 to 500 characters. The customer's");
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const answer = await module.default.handler({ question: 'Hi?' }, { log });
    expect(answer).toEqual({ summary: expect.stringContaining('"Hi?"') });
  }, 120_000);

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

  it('shows usage for --help (exit 0) and for a missing name or unknown option (exit 2)', () => {
    expect(cli('--help').stdout).toContain('Usage: npm run new -- <name>');
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

    it('writes a handler and its test that type-check and pass biome, and never overwrites', () => {
      // A scratch copy of this project (links) whose events/ holds only the new handler.
      const project = mkdtempSync(join(tmpdir(), 'new-event-'));
      const linkAllBut = (from: string, to: string, except: string[]) => {
        mkdirSync(to, { recursive: true });
        for (const entry of readdirSync(from).filter((e) => !except.includes(e))) {
          symlinkSync(join(from, entry), join(to, entry));
        }
      };
      linkAllBut(repo, project, ['events', 'test', 'generated', '.git', 'tsconfig.json', 'biome.json']);
      writeScratchBiome(project);
      linkAllBut(join(repo, 'test', 'worker'), join(project, 'test', 'worker'), ['events']);
      const type = 'appointment.booked';
      expect(scaffoldEvent(type, project)).toEqual([`events/${type}.ts`, `test/worker/events/${type}.test.ts`]);
      // The generated test runs through the project's own events helpers and registry.
      const helpers = join('test', 'worker', 'events', 'helpers.ts');
      symlinkSync(join(repo, helpers), join(project, helpers));
      mkdirSync(join(project, 'generated'));
      writeFileSync(join(project, 'generated', 'events.ts'), eventsSource([type], DEFAULT_EVENTS_ACCOUNTS));
      symlinkSync(join(repo, 'generated', 'functions.ts'), join(project, 'generated', 'functions.ts'));
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          extends: join(repo, 'tsconfig.json'),
          include: ['worker-configuration.d.ts', 'events', 'test/worker/events'],
        }),
      );
      dir = project;
      const tsc = spawnSync(process.execPath, [bin('tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      expect(tsc.stdout + tsc.stderr).toBe('');
      const biome = spawnSync(bin('biome'), ['check', 'events', 'test/worker/events'], { cwd: dir, encoding: 'utf8' });
      expect(biome.status, biome.stdout + biome.stderr).toBe(0);
      expect(() => scaffoldEvent(type, dir)).toThrow(`events/${type}.ts already exists`);
    }, 120_000);

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
