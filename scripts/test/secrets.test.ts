// npm run secrets: the functions' declared secrets and vars, listed, checked against a target (one
// line per missing one) and put by the deploy; .dev.vars.example names every one the project declares.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSecrets, type SecretsIo } from '../secrets/main.ts';
import { settingsOf } from '../secrets/settings.ts';
import { copyProject } from './project.ts';

const functions = [
  { name: 'lookup_order', secrets: ['SHOP_API_KEY'], vars: ['SHOP_API_URL'] },
  { name: 'notify_team', secrets: ['PLATFORM_API_KEY'], vars: ['PLATFORM_BASE_URL', 'HELPDESK_CONTACT_ID'] },
  { name: 'quote_plan' },
];

/**
 * Runs the command with a stand-in wrangler that has `onWorker` as the Worker's secrets; no event
 * files unless `events` gives types (and accounts).
 */
const run = async (
  argv: string[],
  env: Record<string, string> = {},
  onWorker: string[] | 'no-worker' = [],
  events: Pick<SecretsIo, 'eventTypes' | 'config' | 'root'> = { eventTypes: [] },
) => {
  let out = '';
  let err = '';
  const calls: { args: readonly string[]; input?: string }[] = [];
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const io: SecretsIo = {
    env,
    stdout: sink((t) => {
      out += t;
    }),
    stderr: sink((t) => {
      err += t;
    }),
    readFunctions: async () => functions,
    // The per-account check (keys accepted by the platform) is scripts/test/accounts/accounts.test.ts's.
    checkAccounts: false,
    // What npm run dev sets itself when .dev.vars does not: its local platform, a Worker without a key.
    devSupplied: async () => ['FUNCTIONS_SECRET', 'PLATFORM_API_KEY', 'PLATFORM_BASE_URL'],
    wrangler: async (args, options = {}) => {
      calls.push({ args, ...(options.input === undefined ? {} : { input: options.input }) });
      if (args[1] === 'list') {
        return onWorker === 'no-worker'
          ? { code: 1, stdout: '', stderr: 'This Worker does not exist on your account. [code: 10007]' }
          : { code: 0, stdout: JSON.stringify(onWorker.map((name) => ({ name, type: 'secret_text' }))), stderr: '' };
      }
      return { code: 0, stdout: 'Finished processing secrets file', stderr: '' };
    },
    ...events,
  };
  const code = await runSecrets(argv, io);
  return { code, out, err, calls };
};

// Loading wrangler (which reads wrangler.toml for each check) takes seconds on a busy machine.
beforeAll(async () => {
  await import('wrangler');
}, 60_000);

describe('declared settings', () => {
  it('merges every function declaration with the Worker own FUNCTIONS_SECRET, sorted by name', () => {
    expect(settingsOf(functions).map((s) => `${s.name}:${s.kind}:${s.usedBy.join('+')}`)).toEqual([
      'FUNCTIONS_SECRET:secret:the Worker (every function key)',
      'HELPDESK_CONTACT_ID:var:notify_team',
      'PLATFORM_API_KEY:secret:notify_team',
      'PLATFORM_BASE_URL:var:notify_team',
      'SHOP_API_KEY:secret:lookup_order',
      'SHOP_API_URL:var:lookup_order',
    ]);
  });
});

describe('npm run secrets -- list', () => {
  it('prints every setting as a table: name, kind and the functions that need it', async () => {
    const result = await run(['list']);
    expect(result).toMatchObject({ code: 0, err: '', calls: [] });
    expect(result.out).toBe(
      [
        '| name | kind | needed by |',
        '| --- | --- | --- |',
        '| `FUNCTIONS_SECRET` | secret | the Worker (every function key) |',
        '| `HELPDESK_CONTACT_ID` | var | `notify_team` |',
        '| `MCP_OWNER_SECRET` | secret | the MCP consent page (OAUTH_KV is bound) |',
        '| `PLATFORM_API_KEY` | secret | `notify_team` |',
        '| `PLATFORM_BASE_URL` | var | `notify_team` |',
        '| `SHOP_API_KEY` | secret | `lookup_order` |',
        '| `SHOP_API_URL` | var | `lookup_order` |',
        '',
      ].join('\n'),
    );
  });
});

describe('npm run secrets -- check (before deploy)', () => {
  it('fails with one line per missing setting, naming who needs it and how to set it', async () => {
    const result = await run(['check', '--env', 'staging'], { SECRETS_JSON: JSON.stringify({ SHOP_API_KEY: 'sk' }) }, [
      'FUNCTIONS_SECRET',
    ]);
    expect(result.code).toBe(1);
    expect(result.err.trim().split('\n')).toEqual([
      'Preflight of environment "staging" failed:',
      'Missing HELPDESK_CONTACT_ID (var of notify_team): add it as a secret of the GitHub environment "staging" (the deploy puts it), or run npx wrangler secret put HELPDESK_CONTACT_ID --env staging.',
      'Missing MCP_OWNER_SECRET (secret of the MCP consent page (OAUTH_KV is bound)): add it as a secret of the GitHub environment "staging" (the deploy puts it), or run npx wrangler secret put MCP_OWNER_SECRET --env staging.',
      'Missing PLATFORM_API_KEY (secret of notify_team): add it as a secret of the GitHub environment "staging" (the deploy puts it), or run npx wrangler secret put PLATFORM_API_KEY --env staging.',
      'Missing PLATFORM_BASE_URL (var of notify_team): add it as a secret of the GitHub environment "staging" (the deploy puts it), or run npx wrangler secret put PLATFORM_BASE_URL --env staging.',
      'Missing SHOP_API_URL (var of lookup_order): add it as a secret of the GitHub environment "staging" (the deploy puts it), or run npx wrangler secret put SHOP_API_URL --env staging.',
    ]);
    expect(result.calls[0]?.args).toEqual(['secret', 'list', '--format', 'json', '--env', 'staging']);
  });

  it('passes when the Worker, wrangler.toml and this run hold every one', async () => {
    const result = await run(
      ['check'],
      {
        PLATFORM_API_KEY: 'pk',
        SECRETS_JSON: JSON.stringify({ SHOP_API_KEY: 'sk', SHOP_API_URL: 'https://s', HELPDESK_CONTACT_ID: 'c1' }),
      },
      ['FUNCTIONS_SECRET', 'MCP_OWNER_SECRET', 'PLATFORM_BASE_URL'],
    );
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain('Preflight of production (the top level of wrangler.toml): all 7 settings are set');
    expect(result.calls[0]?.args).toEqual(['secret', 'list', '--format', 'json', '--env=']);
  });

  it('counts only this run values before the first deploy', async () => {
    const result = await run(['check', '--env', 'staging'], {}, 'no-worker');
    expect(result.code).toBe(1);
    expect(result.out).toContain('does not exist yet');
    expect(result.err).toContain('Missing FUNCTIONS_SECRET');
  });
});

describe('npm run secrets -- put', () => {
  it('puts every declared setting this run has in one wrangler secret bulk, printing names only', async () => {
    const secrets = {
      FUNCTIONS_SECRET: 'fs-Q3jx9vT0bq8hV1dYl2mKc7pR',
      SHOP_API_KEY: 'sk-value',
      CLOUDFLARE_API_TOKEN: 'cf',
      github_token: 'gh',
    };
    const result = await run(['put', '--env', 'staging'], {
      SECRETS_JSON: JSON.stringify(secrets),
      HELPDESK_CONTACT_ID: 'c1',
    });
    expect(result.code).toBe(0);
    expect(result.calls).toEqual([
      {
        args: ['secret', 'bulk', '--env', 'staging'],
        input: JSON.stringify({
          FUNCTIONS_SECRET: 'fs-Q3jx9vT0bq8hV1dYl2mKc7pR',
          HELPDESK_CONTACT_ID: 'c1',
          SHOP_API_KEY: 'sk-value',
        }),
      },
    ]);
    expect(result.out).toBe(
      'Put 3 secret(s) on environment "staging": FUNCTIONS_SECRET, HELPDESK_CONTACT_ID, SHOP_API_KEY.\n',
    );
    expect(result.out + result.err).not.toMatch(/fs-Q3jx|sk-value/);
  });
});

describe('the events endpoint settings', () => {
  const config = {
    accounts: [
      { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
      { name: 'client-acme', apiKeyEnv: 'ACME_PLATFORM_API_KEY', baseUrl: 'https://app.acme.example' },
    ],
  };
  const everyFunctionSetting = JSON.stringify({
    FUNCTIONS_SECRET: 'fs-Q3jx9vT0bq8hV1dYl2mKc7pR',
    MCP_OWNER_SECRET: 'owner-W7n2Lq9Xk4Tz8Vb3Mr6Yc1Hs',
    SHOP_API_KEY: 's',
    SHOP_API_URL: 'https://s',
    HELPDESK_CONTACT_ID: 'c',
    PLATFORM_API_KEY: 'p',
    PLATFORM_BASE_URL: 'https://p',
  });

  it('requires the key of every account (and its base address variable) when events/ has files', async () => {
    const result = await run(['check'], { SECRETS_JSON: everyFunctionSetting }, [], {
      eventTypes: ['appointment.booked'],
      config,
    });
    expect(result.code).toBe(1);
    expect(result.err.trim().split('\n')).toEqual([
      'Preflight of production (the top level of wrangler.toml) failed:',
      'Missing ACME_PLATFORM_API_KEY (secret of the events endpoint of account "client-acme"): add it as a secret of the GitHub environment "production" (the deploy puts it), or run npx wrangler secret put ACME_PLATFORM_API_KEY.',
    ]);
    const listed = await run(['list'], {}, [], { eventTypes: ['appointment.booked'], config });
    expect(listed.out).toContain(
      '| `PLATFORM_API_KEY` | secret | `notify_team`, the events endpoint of account "agency" |',
    );
    expect(listed.out).not.toContain('app.acme.example');
  });

  it('requires no account key without event files', async () => {
    const result = await run(['check'], { SECRETS_JSON: everyFunctionSetting }, [], { eventTypes: [], config });
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).not.toContain('ACME_PLATFORM_API_KEY');
  });

  it('puts the account keys this run has, printing names only', async () => {
    const put = await run(['put'], { ACME_PLATFORM_API_KEY: 'acme-key' }, [], {
      eventTypes: ['message.received'],
      config,
    });
    expect(put.calls.at(-1)).toEqual({
      args: ['secret', 'bulk', '--env='],
      input: JSON.stringify({ ACME_PLATFORM_API_KEY: 'acme-key' }),
    });
    expect(put.out).not.toContain('acme-key');
  });

  it("reads the accounts of the environment's own file, as sync does, and refuses a broken one", async () => {
    const root = mkdtempSync(join(tmpdir(), 'secrets-accounts-'));
    const events = { eventTypes: ['appointment.booked'], root };
    writeFileSync(join(root, 'platform.accounts.staging.json'), JSON.stringify(config));
    expect((await run(['list', '--env', 'staging'], {}, [], events)).out).toContain('`ACME_PLATFORM_API_KEY`');
    expect((await run(['list'], {}, [], events)).out).not.toContain('ACME_PLATFORM_API_KEY');
    writeFileSync(join(root, 'platform.accounts.staging.json'), '{"accounts": []}');
    const broken = await run(['list', '--env', 'staging'], {}, [], events);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('platform.accounts.staging.json: accounts: list at least one account');
  });
});

describe('the MCP owner secret', () => {
  it('is required when the Worker binds OAUTH_KV, and refused when weak, like FUNCTIONS_SECRET', async () => {
    const missing = await run(['check'], {
      SECRETS_JSON: JSON.stringify({ FUNCTIONS_SECRET: 'fs-Q3jx9vT0bq8hV1dYl2mKc7pR' }),
    });
    expect(missing.err).toContain('Missing MCP_OWNER_SECRET (secret of the MCP consent page (OAUTH_KV is bound))');
    for (const [name, value] of [
      ['MCP_OWNER_SECRET', 'hunter2'],
      ['MCP_OWNER_SECRET', 'change-me-change-me-change-me'],
      ['FUNCTIONS_SECRET', 'short'],
    ] as const) {
      const weak = await run(['put'], { [name]: value });
      expect(weak.code, `${name}=${value}`).toBe(1);
      expect(weak.err).toMatch(new RegExp(`^${name} in this run is (too short|a placeholder)`));
      expect(weak.calls).toEqual([]);
    }
  });
});

describe('npm run secrets -- check --local', () => {
  it('names each setting neither .dev.vars nor npm run dev sets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const file = join(dir, 'dev.vars');
    writeFileSync(file, 'SHOP_API_KEY=\n# HELPDESK_CONTACT_ID=c\nSHOP_API_URL=https://s\n');
    const result = await run(['check', '--local', '--dev-vars', file]);
    expect(result.code).toBe(1);
    expect(result.err.trim().split('\n')).toEqual([
      expect.stringMatching(/^Missing HELPDESK_CONTACT_ID \(var of notify_team\): add it to .*dev\.vars/),
      expect.stringMatching(/^Missing SHOP_API_KEY \(secret of lookup_order\)/),
    ]);
  });

  it('counts what npm run dev supplies itself: its local platform, the stand-ins of dev.config.ts, a Worker without a key', async () => {
    // .dev.vars as copied from an example that leaves every value empty, and a dev.config.ts whose
    // stand-ins give the rest.
    const root = copyProject({
      '.dev.vars': 'FUNCTIONS_SECRET=\nSHOP_API_KEY=\nSHOP_API_URL=\n',
      'dev.config.ts': [
        "import { defineDevConfig } from 'agent-functions-cli/dev';",
        'export default defineDevConfig({',
        '  async setup({ platform }) {',
        "    const desk = await platform.contacts.create({ name: 'Help desk', phone: '+14155550199', channel: 'whatsapp' });",
        "    return { vars: { SHOP_API_URL: 'http://127.0.0.1:9', SHOP_API_KEY: 'stand-in', HELPDESK_CONTACT_ID: desk.id } };",
        '  },',
        '});',
        '',
      ].join('\n'),
    });
    try {
      let out = '';
      let err = '';
      const sink = (append: (text: string) => void) =>
        new Writable({
          write(chunk, _encoding, done) {
            append(String(chunk));
            done();
          },
        });
      const code = await runSecrets(['check', '--local'], {
        env: {},
        root,
        stdout: sink((t) => {
          out += t;
        }),
        stderr: sink((t) => {
          err += t;
        }),
        readFunctions: async () => functions,
      });
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out).toBe(
        'All 6 settings are set for local development (npm run dev supplies FUNCTIONS_SECRET (none: no key needed), HELPDESK_CONTACT_ID, PLATFORM_API_KEY, PLATFORM_BASE_URL, SHOP_API_KEY, SHOP_API_URL).\n',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('shows --help, and refuses an unknown command', async () => {
    expect((await run(['--help'])).out).toContain('check [--env NAME]');
    expect(await run(['deploy'])).toMatchObject({
      code: 1,
      err: 'Unknown command "deploy". See npm run secrets -- --help.\n',
    });
  });
});

describe('wrangler failures', () => {
  it('quote the error line of wrangler, without colours or the log-file pointer', async () => {
    const { wranglerError } = await import('../wrangler.ts');
    const stderr =
      '\n\u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m \u001b[1mIn a non-interactive environment, it is necessary to set a CLOUDFLARE_API_TOKEN.\u001b[0m\n\n🪵  Logs were written to "/x.log"\n';
    expect(wranglerError(stderr)).toBe(
      'In a non-interactive environment, it is necessary to set a CLOUDFLARE_API_TOKEN.',
    );
    expect(wranglerError('first\nlast line\n🪵  Logs were written to "/x.log"')).toBe('last line');
  });
});
