// The secrets and vars the project needs, from the functions' declarations (the manifest) plus the
// framework's own (the events endpoint's accounts among them), and which of them a target lacks:
// one line per missing one.
import type { AccountEntry } from 'agent-functions/worker';
import type { ServedFunction } from '../project/manifest.ts';

/** One declared setting and who needs it. */
export interface Setting {
  name: string;
  kind: 'secret' | 'var';
  usedBy: string[];
}

/** What the Worker itself needs whatever the functions: the secret every key is derived from. */
export const FRAMEWORK_SECRETS: readonly Setting[] = [
  { name: 'FUNCTIONS_SECRET', kind: 'secret', usedBy: ['the Worker (every function key)'] },
];

/**
 * What the events endpoint needs when events/ has files: each account's key variable (a secret) and
 * base-address variable (a var, unless the accounts file gives the address), since the Worker reads
 * each account's signing secret with them (docs/events.md). Nothing without event files.
 * @example eventsSettings(['appointment.booked'], eventsAccountsOf(DEFAULT_CONFIG)) // PLATFORM_API_KEY, PLATFORM_BASE_URL
 */
export const eventsSettings = (types: readonly string[], accounts: readonly AccountEntry[]): Setting[] =>
  types.length === 0
    ? []
    : accounts.flatMap((account): Setting[] => {
        const usedBy = [`the events endpoint of account "${account.name}"`];
        return [
          // A stored key needs ACCOUNTS_SECRET instead (accountsSettings).
          ...(account.apiKeyEnv ? [{ name: account.apiKeyEnv, kind: 'secret' as const, usedBy }] : []),
          ...(account.baseUrl
            ? []
            : [{ name: account.baseUrlEnv ?? 'PLATFORM_BASE_URL', kind: 'var' as const, usedBy: [...usedBy] }]),
        ];
      });

/**
 * What the account store needs when an account of the accounts file has no apiKeyEnv (its key is
 * stored): the secret its records are sealed under (docs/sync-and-accounts.md).
 * @example accountsSettings([{ name: 'client-acme' }]) // ACCOUNTS_SECRET
 */
export const accountsSettings = (accounts: readonly { name: string; apiKeyEnv?: string | undefined }[]): Setting[] => {
  const stored = accounts.filter((account) => !account.apiKeyEnv).map((account) => `"${account.name}"`);
  return stored.length === 0
    ? []
    : [
        {
          name: 'ACCOUNTS_SECRET',
          kind: 'secret',
          usedBy: [`the account store (stored keys of ${stored.join(', ')})`],
        },
      ];
};

/**
 * What /mcp's OAuth needs when the Worker binds OAUTH_KV: the owner secret its consent page asks
 * for (the Worker refuses to approve or register any client while it is unset or weak).
 * @example oauthSettings(['OAUTH_KV']) // [{ name: 'MCP_OWNER_SECRET', kind: 'secret', ... }]
 */
export const oauthSettings = (kvBindings: readonly string[]): Setting[] =>
  kvBindings.includes('OAUTH_KV')
    ? [{ name: 'MCP_OWNER_SECRET', kind: 'secret', usedBy: ['the MCP consent page (OAUTH_KV is bound)'] }]
    : [];

/** The secrets whose strength is checked wherever their value is known: each guards every function or every client. */
export const GUARDING_SECRETS: readonly string[] = ['FUNCTIONS_SECRET', 'MCP_OWNER_SECRET', 'ACCOUNTS_SECRET'];

/**
 * Every setting, sorted by name; a name declared as a secret anywhere is a secret. `framework`
 * adds what the Worker itself needs beyond FUNCTIONS_SECRET (eventsSettings).
 * @example settingsOf([{ name: 'lookup_warranty', secrets: ['WARRANTY_API_KEY'], vars: [] }])
 */
export const settingsOf = (
  functions: readonly Pick<ServedFunction, 'name' | 'secrets' | 'vars'>[],
  framework: readonly Setting[] = [],
): Setting[] => {
  const byName = new Map<string, Setting>(
    FRAMEWORK_SECRETS.map((setting) => [setting.name, { ...setting, usedBy: [...setting.usedBy] }]),
  );
  const add = (name: string, kind: Setting['kind'], user: string) => {
    const setting = byName.get(name) ?? { name, kind, usedBy: [] };
    if (kind === 'secret') setting.kind = 'secret';
    if (!setting.usedBy.includes(user)) setting.usedBy.push(user);
    byName.set(name, setting);
  };
  for (const fn of functions) {
    for (const name of fn.secrets ?? []) add(name, 'secret', fn.name);
    for (const name of fn.vars ?? []) add(name, 'var', fn.name);
  }
  for (const setting of framework) for (const user of setting.usedBy) add(setting.name, setting.kind, user);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
};

/** The settings not among `available`, each as one line ending with what to do. */
export const missingLines = (
  settings: readonly Setting[],
  available: ReadonlySet<string>,
  fix: (setting: Setting) => string,
): string[] =>
  settings
    .filter((setting) => !available.has(setting.name))
    .map((setting) => `Missing ${setting.name} (${setting.kind} of ${setting.usedBy.join(', ')}): ${fix(setting)}`);

/** Every setting as a Markdown table (`npm run secrets -- list`). */
export const settingsTable = (settings: readonly Setting[]): string =>
  [
    '| name | kind | needed by |',
    '| --- | --- | --- |',
    ...settings.map(
      (setting) =>
        `| \`${setting.name}\` | ${setting.kind} | ${setting.usedBy.map((user) => (user.includes(' ') ? user : `\`${user}\``)).join(', ')} |`,
    ),
  ].join('\n');
