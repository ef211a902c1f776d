// The command line of `npm run sync` and its help (docs/platform-contract.md §2).
import { parseArgs } from 'node:util';
import { ACCOUNTS_FILE } from '../project/accounts.ts';
import { environmentOf } from '../wrangler.ts';

/** What the flags ask for. */
export interface SyncArgs {
  help: boolean;
  dryRun: boolean;
  prune: boolean;
  json: boolean;
  exitCode: boolean;
  only: string[] | undefined;
  accounts: string | undefined;
  account: string[] | undefined;
  concurrency: number;
  /** Accounts synced at once (each has its own key and rate limit). */
  accountConcurrency: number;
  /** The wrangler.toml environment (staging); undefined is production, the top level. */
  env: string | undefined;
  /** Previous origins of this project whose registrations are moved to FUNCTIONS_BASE_URL. */
  adopt: string[];
  /** Show what is registered per account and whether it matches; write nothing. */
  status: boolean;
  /** Cap of one platform answer, in bytes. */
  maxResponseBytes: number;
}

export const HELP = `Usage: npm run sync -- [options]

Registers every function in functions/ on the platform (POST/PATCH/DELETE /v1/custom-functions),
exactly as the Worker serves it: name, enriched description, parameter map, and a url carrying the
function's own key. Only functions whose url is under FUNCTIONS_BASE_URL/functions/ are ever changed.
On each account but the first of the accounts file, the url names that account (?account=NAME)
and its key is bound to it; a url naming another account is never changed. Several accounts are
synced at once; each gets its own result, and one failing account stops no other.

Options:
  --dry-run           Print the plan (create, update with what differs, delete, unchanged); write nothing.
  --prune             Also delete functions of ours that are no longer in functions/.
  --json              Print one JSON document (plan and result) on stdout, nothing else.
  --exit-code         With --dry-run: exit 2 when something would change.
  --only a,b          Limit the run to these function names.
  --accounts FILE     The accounts file (default: ${ACCOUNTS_FILE} at the project's root; without it,
                      one account from PLATFORM_BASE_URL and PLATFORM_API_KEY).
  --account x,y       Sync only these accounts of the accounts file (an unknown name is an error
                      that lists the file's names).
  --concurrency N     Writes in flight per account (default 4).
  --account-concurrency N  Accounts synced at once (default 8, at most 64); each has its own key
                      and rate limit, so one slow or failing account holds up no other.
  --env NAME          Sync that environment (for example staging): reads .env.NAME instead of .env,
                      and platform.accounts.NAME.json when it exists. Default: production.
  --adopt ORIGIN      Functions registered under this previous origin (FUNCTIONS_BASE_URL before a
                      move to a custom domain) are moved to the current one in place: an update of
                      their url, shown in the plan; never a delete and a create. Repeatable.
  --status            Show what each account has registered and whether it matches, and whether
                      the deployed Worker accepts the keys; write nothing.
  --max-response-mib N  Largest platform answer read, in MiB (default 4); a larger one fails the account.
  -h, --help          Show this help.

Environment (also read from .env at the project's root; CI sets them as secrets):
  FUNCTIONS_BASE_URL  Public origin of the deployed Worker, e.g. https://agent-functions.example.workers.dev
  FUNCTIONS_SECRET    Secret each function's key is derived from (the Worker's FUNCTIONS_SECRET).
  PLATFORM_BASE_URL   The account's platform base address (white-label tenants have their own).
  PLATFORM_API_KEY    The account's API key (sent as X-API-Key).
  An accounts file names further variables for the keys (and addresses) of other accounts.

Exit codes:
  0  done (or nothing to do)
  1  failed: bad flags or settings, a write refused, a name owned by someone else, the run did
     not converge (it says what is left; run it again to finish), or the Worker at
     FUNCTIONS_BASE_URL refused the key of FUNCTIONS_SECRET (every registered url would be refused)
  2  --dry-run --exit-code and something would change
  3  the platform refused an API key (401): check the account's key variable
  4  the account's plan lacks API access (403): upgrade the plan
`;

/** Parses the flags; throws a one-line error for anything unknown or malformed. */
export const parseSyncArgs = (argv: string[]): SyncArgs => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      'dry-run': { type: 'boolean', default: false },
      prune: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'exit-code': { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      accounts: { type: 'string' },
      account: { type: 'string', multiple: true },
      concurrency: { type: 'string', default: '4' },
      'account-concurrency': { type: 'string', default: '8' },
      env: { type: 'string' },
      adopt: { type: 'string', multiple: true },
      status: { type: 'boolean', default: false },
      'max-response-mib': { type: 'string', default: '4' },
    },
  });
  if (positionals.length > 0) throw new Error(`Unexpected argument "${positionals[0]}"; see --help.`);
  const list = (value: string[] | undefined) =>
    value
      ?.flatMap((item) => item.split(','))
      .map((item) => item.trim())
      .filter(Boolean);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    throw new Error('--concurrency must be a whole number from 1 to 32.');
  }
  const accountConcurrency = Number(values['account-concurrency']);
  if (!Number.isInteger(accountConcurrency) || accountConcurrency < 1 || accountConcurrency > 64) {
    throw new Error('--account-concurrency must be a whole number from 1 to 64.');
  }
  if (values['exit-code'] && !values['dry-run']) throw new Error('--exit-code only applies to --dry-run.');
  const env = environmentOf(values.env);
  const adopt = list(values.adopt) ?? [];
  const badOrigin = adopt.find((origin) => !/^https?:\/\/[^/?#\s]+\/?$/.test(origin));
  if (badOrigin !== undefined) {
    throw new Error(
      `--adopt takes the previous origin of the Worker, such as https://agent-functions.old.workers.dev, not "${badOrigin}".`,
    );
  }
  const mib = Number(values['max-response-mib']);
  if (!(mib > 0 && mib <= 1024)) throw new Error('--max-response-mib must be a number of MiB from 0.001 to 1024.');
  return {
    help: values.help,
    dryRun: values['dry-run'],
    prune: values.prune,
    json: values.json,
    exitCode: values['exit-code'],
    only: list(values.only),
    accounts: values.accounts,
    account: list(values.account),
    concurrency,
    accountConcurrency,
    env,
    adopt,
    status: values.status,
    maxResponseBytes: Math.round(mib * 1024 * 1024),
  };
};
