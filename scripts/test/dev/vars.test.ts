import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { devVars } from '../../local/vars.ts';

// A project's stand-ins (its dev.config.ts) gave the Worker these.
const SERVICES = {
  platformUrl: 'http://127.0.0.1:40001',
  platformApiKey: 'local-agency-key',
  standIns: { TEAM_CONTACT_ID: 'ct_000001', SHOP_API_URL: 'http://127.0.0.1:40002', SHOP_API_KEY: 'shop-key' },
};
const STRONG = 'q3Jx9vT0bq8hV1dYl2mKc7pR5sWz4nA6';

/** A project folder holding only these files. */
const project = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-vars-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe('the values of the local Worker under npm run dev', () => {
  it("wires the Worker to the local platform and the project's stand-ins, and serves without a key, when no file says otherwise", () => {
    const { vars, secret, notes, problems } = devVars(project({}), SERVICES);
    expect(vars).toEqual({
      AGENT_FUNCTIONS_MODE: 'development',
      PLATFORM_BASE_URL: SERVICES.platformUrl,
      PLATFORM_API_KEY: SERVICES.platformApiKey,
      ...SERVICES.standIns,
      FUNCTIONS_SECRET: '',
    });
    expect(secret).toBeUndefined();
    expect({ notes, problems }).toEqual({ notes: [], problems: [] });
  });

  it('wires the variables of the first account of platform.accounts.json too, whose webhook dev registers at /events', () => {
    const accounts = {
      accounts: [
        { name: 'agency', apiKeyEnv: 'AGENCY_API_KEY', baseUrlEnv: 'AGENCY_BASE_URL' },
        { name: 'client-acme', apiKeyEnv: 'ACME_API_KEY', baseUrl: 'https://app.acme.example' },
      ],
    };
    const { vars, notes, problems } = devVars(
      project({ 'platform.accounts.json': JSON.stringify(accounts) }),
      SERVICES,
    );
    expect(vars).toMatchObject({ AGENCY_API_KEY: SERVICES.platformApiKey, AGENCY_BASE_URL: SERVICES.platformUrl });
    expect(vars).not.toHaveProperty('ACME_API_KEY');
    expect({ notes, problems }).toEqual({ notes: [], problems: [] });
    const broken = devVars(project({ 'platform.accounts.json': '{"accounts": []}' }), SERVICES);
    expect(broken.problems).toEqual([
      expect.stringContaining('platform.accounts.json: accounts: list at least one account'),
    ]);
  });

  it("keeps .env (sync's settings, copied from .env.example) away from the Worker, and says which values it ignores", () => {
    const env =
      'PLATFORM_BASE_URL=https://api.example.com\nPLATFORM_API_KEY=real\nFUNCTIONS_SECRET=change-me-to-a-long-random-string\n';
    const { vars, secret, notes, problems } = devVars(project({ '.env': env }), SERVICES);
    expect(secret).toBeUndefined();
    expect(vars.FUNCTIONS_SECRET).toBe('');
    expect(vars.PLATFORM_BASE_URL).toBe(SERVICES.platformUrl);
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      '.env is for npm run sync; the local Worker does not read it (FUNCTIONS_SECRET, PLATFORM_API_KEY, PLATFORM_BASE_URL ignored here).',
    ]);
  });

  it('refuses a placeholder or short FUNCTIONS_SECRET in .dev.vars, saying what to do', () => {
    for (const weak of ['change-me-to-a-long-random-string', 'abc123']) {
      const { problems } = devVars(project({ '.dev.vars': `FUNCTIONS_SECRET=${weak}\n` }), SERVICES);
      expect(problems).toEqual([
        expect.stringMatching(/^FUNCTIONS_SECRET in \.dev\.vars is (a placeholder|too short)/),
      ]);
      expect(problems[0]).toContain('openssl rand -base64 32');
      expect(problems[0]).toContain('or delete the line');
    }
  });

  it('uses a strong FUNCTIONS_SECRET of .dev.vars (wrangler reads it there) and says a keyless call answers 401', () => {
    const { vars, secret, notes } = devVars(project({ '.dev.vars': `FUNCTIONS_SECRET=${STRONG}\n` }), SERVICES);
    expect(secret).toBe(STRONG);
    expect(vars).not.toHaveProperty('FUNCTIONS_SECRET');
    expect(notes.join('\n')).toContain('FUNCTIONS_SECRET comes from .dev.vars: every call needs its key');
  });

  it('lets a value of .dev.vars win over its local stand-in, and says so without printing a key', () => {
    const file = 'SHOP_API_URL=https://shop.example.com/api\nSHOP_API_KEY=secret-shop-key\n';
    const { vars, notes } = devVars(project({ '.dev.vars': file }), SERVICES);
    expect(vars).not.toHaveProperty('SHOP_API_URL');
    expect(vars).not.toHaveProperty('SHOP_API_KEY');
    expect(vars).toHaveProperty('TEAM_CONTACT_ID', 'ct_000001');
    expect(notes).toEqual([
      "SHOP_API_URL comes from .dev.vars (https://shop.example.com/api), not from dev's local stand-in.",
      "SHOP_API_KEY comes from .dev.vars (***), not from dev's local stand-in.",
    ]);
  });
});
