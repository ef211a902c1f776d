// Sync against the local platform over real HTTP, with the manifest the framework's test functions
// describe (src/test/fixtures/functions/), whatever functions/ holds. Reading it from a running
// Worker is e2e/sync.test.ts's part.

import type { AnyFunctionDefinition } from 'agent-functions';
import { describeFunction, functionUrl } from 'agent-functions/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../platform/emulator.ts';
import { parseManifest, type ServedFunction } from '../../project/manifest.ts';
import { PLACEHOLDER_DESCRIPTION } from '../../project/templates.ts';
import { accountApi } from '../../sync/accountApi.ts';
import { FIXTURE_NAMES } from '../project.ts';
import { emulatorPerTest, keyOf, ORIGIN, recordsOf, SECRET, sync, writesIn } from './helpers.ts';

let served: ServedFunction[];

// Imported by a computed path: the fixtures are Worker code, checked by the framework's tsconfig, not this one.
const FIXTURES = new URL('../../../src/test/fixtures/functions/index.ts', import.meta.url).href;

beforeAll(async () => {
  const { FIXTURE_FUNCTIONS } = (await import(FIXTURES)) as {
    FIXTURE_FUNCTIONS: Record<string, AnyFunctionDefinition>;
  };
  // What the Worker's GET /functions answers: one manifest per function, by the framework's own module.
  const manifests = Object.entries(FIXTURE_FUNCTIONS).map(([name, definition]) => describeFunction(name, definition));
  served = parseManifest(200, JSON.stringify({ functions: manifests }));
  // At least three, for the tests that change, drop or select some of them.
  expect(served.map((fn) => fn.name)).toEqual(FIXTURE_NAMES);
});

const start = emulatorPerTest();

const namesOf = (records: { name: string }[]) => records.map((r) => r.name);
const servedNames = () => served.map((fn) => fn.name).sort();

describe('sync against the local platform', () => {
  it('registers every served function exactly as the Worker describes it, with its keyed url', async () => {
    const platform = await start();
    const run = await sync(platform, served);
    expect(run.exitCode).toBe(0);
    const records = recordsOf(platform, 'business');
    expect(namesOf(records)).toEqual(servedNames());
    for (const fn of served) {
      const record = records.find((r) => r.name === fn.name);
      expect(record).toMatchObject({
        description: fn.description,
        parameters: fn.parameters,
        url: await functionUrl(ORIGIN, fn, SECRET),
      });
    }
    expect(run.stdout).toContain(`+ create     ${served[0]?.name}`);
    expect(run.stdout).toContain(`synced: ${served.length} created, 0 updated, 0 deleted`);
  });

  it('writes nothing on a second run', async () => {
    const platform = await start();
    await sync(platform, served);
    const before = platform.log().length;
    const run = await sync(platform, served);
    expect(run.exitCode).toBe(0);
    expect(writesIn(platform, before)).toEqual([]);
    expect(run.stdout).toContain('in sync, nothing to do');
  });

  it('updates only the function whose description, parameters or url changed', async () => {
    const platform = await start();
    await sync(platform, served);
    const [first, second, third] = served as [ServedFunction, ServedFunction, ServedFunction];
    const changed = served.map((fn) =>
      fn === first
        ? { ...fn, description: `${fn.description}\nNow also on Sundays.` }
        : fn === second
          ? { ...fn, parameters: { ...fn.parameters, extra: 'boolean' as const } }
          : fn === third
            ? { ...fn, path: `${fn.path}/v2` }
            : fn,
    );
    const before = platform.log().length;
    const run = await sync(platform, changed);
    expect(run.exitCode).toBe(0);
    const writes = writesIn(platform, before);
    const ids = Object.fromEntries(recordsOf(platform, 'business').map((r) => [r.name, r.id]));
    expect(writes.map((w) => `${w.method} ${w.path}`).sort()).toEqual(
      [first, second, third].map((fn) => `PATCH /v1/custom-functions/${ids[fn.name]}`).sort(),
    );
    expect(run.stdout).toContain(`~ update     ${first.name} (description)`);
    expect(run.stdout).toContain('+Now also on Sundays.');
    expect(run.stdout).toContain('+ extra (boolean)');
    expect(run.stdout).toContain(`url: ${ORIGIN}${third.path}?key=*** → ${ORIGIN}${third.path}/v2?key=***`);
    const record = recordsOf(platform, 'business').find((r) => r.name === first.name);
    expect(record?.description).toBe(`${first.description}\nNow also on Sundays.`);
  });

  it('deletes a function removed from functions/ only with --prune', async () => {
    const platform = await start();
    await sync(platform, served);
    const [gone, ...kept] = served as [ServedFunction, ...ServedFunction[]];
    const keep = await sync(platform, kept);
    expect(keep.exitCode).toBe(0);
    expect(keep.stdout).toContain(`? keep       ${gone.name} (no longer in functions/; --prune deletes it)`);
    expect(namesOf(recordsOf(platform, 'business'))).toContain(gone.name);
    const prune = await sync(platform, kept, ['--prune']);
    expect(prune.exitCode).toBe(0);
    expect(namesOf(recordsOf(platform, 'business'))).toEqual(kept.map((fn) => fn.name).sort());
  });

  it('never changes or deletes a function it does not own, and reports a name clash as a conflict', async () => {
    const platform = await start();
    const { api } = accountApi({ baseUrl: platform.url, apiKey: keyOf(platform, 'business') });
    const [clash] = served as [ServedFunction];
    const theirs = {
      description: 'Their own function.',
      parameters: { q: 'string' as const },
      url: 'https://crm.example.com/hook?token=t',
    };
    await api.create({ name: 'their_lookup', ...theirs });
    await api.create({ name: clash.name, ...theirs });
    const run = await sync(platform, served, ['--prune']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(
      `! conflict   ${clash.name} registered by someone else (https://crm.example.com/hook?token=***)`,
    );
    const records = recordsOf(platform, 'business');
    for (const name of ['their_lookup', clash.name]) {
      expect(records.filter((r) => r.name === name)).toMatchObject([{ ...theirs }]);
    }
    expect(records).toHaveLength(served.length + 1);
  });

  it('follows every page of the list, so nothing is created twice', async () => {
    const platform = await start({ pageSize: 2 });
    await sync(platform, served);
    const before = platform.log().length;
    const run = await sync(platform, served);
    expect(run.exitCode).toBe(0);
    expect(writesIn(platform, before)).toEqual([]);
    expect(
      platform
        .log()
        .slice(before)
        .filter((e) => e.method === 'GET').length,
    ).toBe(Math.ceil(served.length / 2));
  });
});

describe('sync under faults ends with exactly one record per function', () => {
  const exactlyOnce = (platform: RunningEmulator) => {
    const names = namesOf(recordsOf(platform, 'business'));
    expect(names).toEqual(servedNames());
  };

  it('rides out a rate-limit storm', async () => {
    const platform = await start({ faults: { rateLimitStorm: { first: 12, retryAfter: '0' } } });
    const run = await sync(platform, served);
    expect(run.exitCode).toBe(0);
    exactlyOnce(platform);
    expect(platform.log().filter((e) => e.status === 429).length).toBe(12);
  });

  it('rides out 5xx answers, re-listing before any create is sent again', async () => {
    const platform = await start({ faults: { serverErrors: { everyNth: 3, status: 503 } } });
    const run = await sync(platform, served);
    expect(run.exitCode).toBe(0);
    exactlyOnce(platform);
  });

  it.each(['drop', '502'] as const)(
    'finds a create whose answer was lost (%s) instead of sending it again',
    async (mode) => {
      const platform = await start({ faults: { loseCreateAnswer: { count: 3, mode } } });
      const run = await sync(platform, served);
      expect(run.exitCode).toBe(0);
      exactlyOnce(platform);
      expect(writesIn(platform).filter((w) => w.method === 'POST')).toHaveLength(served.length);
      expect(run.stdout).toContain(`synced: ${served.length} created`);
    },
  );

  it('turns a 409 from a concurrent run into a re-list and an update', async () => {
    const platform = await start();
    const [first] = served as [ServedFunction];
    const real = accountApi({ baseUrl: platform.url, apiKey: keyOf(platform, 'business') }).api;
    let raced = false;
    const run = await sync(platform, served, [], {
      io: {
        createApi: () => ({
          api: {
            ...real,
            list: () => real.list(),
            update: (id, input) => real.update(id, input),
            delete: (id) => real.delete(id),
            // Another run registers the first function (older text) just before this run does.
            create: async (input) => {
              if (!raced && input.name === first.name) {
                raced = true;
                await real.create({ ...input, description: 'An older description.' });
              }
              return real.create(input);
            },
          },
        }),
      },
    });
    expect(run.exitCode).toBe(0);
    exactlyOnce(platform);
    expect(recordsOf(platform, 'business').find((r) => r.name === first.name)?.description).toBe(first.description);
    expect(platform.log().some((e) => e.method === 'POST' && e.status === 409)).toBe(true);
  });

  it('exits 1 saying what is left when it cannot converge, and the next run finishes the job', async () => {
    const platform = await start({ faults: { serverErrors: { everyNth: 1, methods: ['POST'] } } });
    const stuck = await sync(platform, served, [], { io: { maxRounds: 2 } });
    expect(stuck.exitCode).toBe(1);
    expect(stuck.stdout).toContain('not converged after 2 rounds');
    expect(stuck.stdout).toContain(`left: create ${served[0]?.name}`);
    platform.setFaults({});
    const again = await sync(platform, served);
    expect(again.exitCode).toBe(0);
    exactlyOnce(platform);
  });
});

describe('sync refuses clearly', () => {
  it('exits 3 on 401, saying to check PLATFORM_API_KEY', async () => {
    const platform = await start();
    const run = await sync(platform, served, [], { env: { PLATFORM_API_KEY: 'not-a-key' } });
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toMatch(
      /refused the API key of account "default" \(401\)\. Check its key variable \(PLATFORM_API_KEY/,
    );
    expect(writesIn(platform)).toEqual([]);
  });

  it('exits 4 on 403, saying the plan lacks API access', async () => {
    const platform = await start();
    const run = await sync(platform, served, [], { env: { PLATFORM_API_KEY: keyOf(platform, 'legacy') } });
    expect(run.exitCode).toBe(4);
    expect(run.stdout).toContain('its plan does not include API access');
    expect(run.stdout).toContain('Upgrade the plan');
  });

  it('refuses a placeholder or short FUNCTIONS_SECRET, saying how to make one, and writes nothing', async () => {
    const platform = await start();
    for (const weak of ['change-me-to-a-long-random-string', 'short-secret']) {
      const run = await sync(platform, served, [], { env: { FUNCTIONS_SECRET: weak } });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(/^FUNCTIONS_SECRET in the environment \(or \.env\) is (a placeholder|too short)/);
      expect(run.stderr).toContain('openssl rand -base64 32');
    }
    expect(platform.log()).toEqual([]);
  });

  it("never syncs a function that still has the scaffold's placeholder description", async () => {
    const platform = await start();
    const unwritten = {
      ...served[0],
      name: 'lookup_warranty',
      description: `${PLACEHOLDER_DESCRIPTION}\n\nParameters: ...`,
    };
    const run = await sync(platform, [...served, unwritten as ServedFunction]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("Still the scaffold's placeholder description: functions/lookup_warranty.ts");
    expect(platform.log()).toEqual([]);
  });

  it('names each missing variable on its own line', async () => {
    const platform = await start();
    const run = await sync(platform, served, [], { env: { PLATFORM_API_KEY: undefined, FUNCTIONS_SECRET: '' } });
    expect(run.exitCode).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('Missing '))).toEqual([
      expect.stringMatching(/^Missing FUNCTIONS_SECRET: /),
      expect.stringMatching(/^Missing PLATFORM_API_KEY: the platform API key of account "default"/),
    ]);
    expect(platform.log()).toEqual([]);
  });
});

describe('sync output for people and machines', () => {
  it('exits 2 from a dry run with --exit-code when something would change, and writes nothing', async () => {
    const platform = await start();
    const run = await sync(platform, served, ['--dry-run', '--exit-code']);
    expect(run.exitCode).toBe(2);
    expect(writesIn(platform)).toEqual([]);
    expect(run.stdout).toContain(`Plan: ${served.length} to create, 0 to update, 0 to delete, 0 unchanged.`);
    await sync(platform, served);
    expect((await sync(platform, served, ['--dry-run', '--exit-code'])).exitCode).toBe(0);
  });

  it('limits the run to --only names', async () => {
    const platform = await start();
    const [a, b] = served as [ServedFunction, ServedFunction];
    const run = await sync(platform, served, ['--only', `${a.name},${b.name}`]);
    expect(run.exitCode).toBe(0);
    expect(namesOf(recordsOf(platform, 'business'))).toEqual([a.name, b.name].sort());
    const bad = await sync(platform, served, ['--only', 'no_such_function']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('--only names no function in functions/: no_such_function');
  });

  it('prints one JSON document that matches what happened', async () => {
    const platform = await start({ faults: { loseCreateAnswer: { count: 1 } } });
    const run = await sync(platform, served, ['--json']);
    expect(run.exitCode).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document).toMatchObject({ ok: true, dryRun: false, exitCode: 0, functions: servedNames() });
    const [account] = document.accounts;
    expect(account).toMatchObject({ account: 'default', status: 'synced', error: null, left: [], conflicts: [] });
    expect(account.plan.map((e: { action: string; name: string }) => `${e.action} ${e.name}`)).toEqual(
      servedNames().map((name) => `create ${name}`),
    );
    expect(account.applied).toEqual(servedNames().map((name) => ({ name, action: 'create', status: 'done' })));
    expect(account.requests.writes).toBe(writesIn(platform).length);
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).not.toMatch(/key=(?!\*\*\*)/);
  });

  it('prints the help with every flag and variable', async () => {
    const platform = await start();
    const run = await sync(platform, served, ['--help']);
    expect(run.exitCode).toBe(0);
    for (const word of [
      '--dry-run',
      '--prune',
      '--json',
      '--exit-code',
      '--only',
      '--accounts',
      '--account',
      '--concurrency',
    ]) {
      expect(run.stdout).toContain(word);
    }
    for (const name of ['FUNCTIONS_BASE_URL', 'FUNCTIONS_SECRET', 'PLATFORM_BASE_URL', 'PLATFORM_API_KEY']) {
      expect(run.stdout).toContain(name);
    }
  });
});
