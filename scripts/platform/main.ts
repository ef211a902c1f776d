// `npm run platform`: starts the local platform, or plays the agent against a running one.
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { parseArgs, styleText } from 'node:util';
import { readDevState } from '../project/devState.ts';
import { projectRoot } from '../project/paths.ts';
import { DEFAULT_PORT, type EmulatorOptions, startEmulator } from './emulator.ts';
import type { FaultOptions } from './faults.ts';
import { answeredFromLedger, REPEAT_LINE } from './repeat.ts';
import {
  type AccountOptions,
  type AccountPlan,
  DEFAULT_CHANNELS,
  DEV_ACCOUNT,
  defaultKey,
  PLAN_NAMES,
  PLANS,
} from './state.ts';

const HELP = `The local platform: an in-memory emulator of the messaging platform's REST API.

Usage:
  agent-functions platform [options]                      start it (default http://127.0.0.1:${DEFAULT_PORT})
  agent-functions platform call <name> ['<json>'] [--account <plan|name> | --key <key>] [--url <url>]
                                                     play the agent: call a registered function
  agent-functions platform inbound <contactId> '<text>'   a customer writes in: signed message.received deliveries
  agent-functions platform emit <type> ['<json>']         an event happens: signed deliveries of <type> with <json> as data

Options of the server:
  --port <n>             port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host <address>       address to listen on (default 127.0.0.1)
  --key <plan>=<key>     API key of a seeded account (repeatable); env PLATFORM_EMULATOR_KEYS="business=...,agency=..."
                         plans: ${PLANS.join(', ')} (legacy has no API access: 403)
  --channels <list>      connected channels of every account (default ${DEFAULT_CHANNELS.join(',')})
  --page-size <n>        records per list page (default 20)
  --rate-limit <n>       requests per key per minute (default 600; 0 = no limit)
  --agency-extra <mode>  the 11th Agency sub-account: refuse (402, default) or charge
  --signing-secret <s>   sign calls of functions like deliveries (default env PLATFORM_SIGNING_SECRET)
  --answer-deadline <ms> how long the agent waits for a function's answer (default 15000)
  --faults <json>        fault injection, env PLATFORM_EMULATOR_FAULTS, for example
                         '{"rateLimitStorm":{"first":3,"retryAfter":"1"},"serverErrors":{"everyNth":5},
                           "dropConnections":{"first":1},"slowMs":200,"loseCreateAnswer":{"count":1}}'
                         and for deliveries '{"dropDeliveries":{"count":1},"duplicateDeliveries":{"count":1}}'

Options of call, inbound and emit:
  --url <url>            the running emulator (default: npm run dev's, else http://127.0.0.1:${DEFAULT_PORT})
  --account <plan|name>  which account: a plan (default agency: the first account npm run dev registers on),
                         or the name of an account of platform.accounts.json under a running npm run dev
                         (its agent calls that account's url of the function); or --key <key>
  --contact <id>         call: the contact the agent talks to (default the account's emulator customer)
  --conversation <id>    call: the conversation id (default cv_<contact>); --channel <name> its channel
  --deadline <ms>        call: give up waiting for the answer after this long
  --reissue <n>          call: a barge-in, the same call sent <n> more times while the first runs

  -h, --help             this text
`;

const fail = (message: string): never => {
  console.error(styleText('red', message));
  process.exit(2);
};

const isPlan = (value: string): value is AccountPlan => (PLANS as readonly string[]).includes(value);

/** Keys from PLATFORM_EMULATOR_KEYS and --key, as plan -> key. */
const keysOf = (flags: string[]): Map<AccountPlan, string> => {
  const keys = new Map<AccountPlan, string>();
  const entries = [...(process.env.PLATFORM_EMULATOR_KEYS ?? '').split(','), ...flags].filter((entry) => entry.trim());
  for (const entry of entries) {
    const [plan = '', key = ''] = entry.trim().split(/=(.*)/s);
    if (!isPlan(plan) || !key) fail(`--key wants <plan>=<key> with a plan among ${PLANS.join(', ')}, not "${entry}".`);
    keys.set(plan as AccountPlan, key);
  }
  return keys;
};

const whole = (flag: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) fail(`${flag} must be a whole number, not "${value}".`);
  return number;
};

const serve = async (values: Record<string, string | string[] | boolean | undefined>) => {
  const keys = keysOf((values.key as string[] | undefined) ?? []);
  const channels = ((values.channels as string | undefined) ?? DEFAULT_CHANNELS.join(','))
    .split(',')
    .map((channel) => channel.trim())
    .filter(Boolean);
  const accounts: AccountOptions[] = PLANS.map((plan) => ({
    plan,
    apiKey: keys.get(plan) ?? defaultKey(plan),
    channels,
  }));
  const faultsText = (values.faults as string | undefined) ?? process.env.PLATFORM_EMULATOR_FAULTS;
  let faults: FaultOptions = {};
  if (faultsText) {
    try {
      faults = JSON.parse(faultsText) as FaultOptions;
    } catch {
      fail('--faults must be JSON, for example \'{"serverErrors":{"everyNth":3}}\'.');
    }
  }
  const extra = (values['agency-extra'] as string | undefined) ?? 'refuse';
  if (extra !== 'refuse' && extra !== 'charge') fail('--agency-extra is refuse or charge.');
  const perMinute = whole('--rate-limit', values['rate-limit'] as string | undefined, 600);
  const options: EmulatorOptions = {
    port: whole('--port', values.port as string | undefined, DEFAULT_PORT),
    host: (values.host as string | undefined) ?? '127.0.0.1',
    accounts,
    pageSize: Math.max(1, whole('--page-size', values['page-size'] as string | undefined, 20)),
    rateLimit: perMinute === 0 ? false : { limit: perMinute, windowMs: 60_000 },
    faults,
    agencyExtraSubAccounts: extra as 'refuse' | 'charge',
    onRequest: ({ method, path, status }) => {
      const colour = status === 'dropped' || status >= 500 ? 'red' : status >= 400 ? 'yellow' : 'green';
      console.log(
        `${styleText('dim', new Date().toISOString().slice(11, 23))} ${method} ${path} ${styleText(colour, String(status))}`,
      );
    },
  };
  const signingSecret = (values['signing-secret'] as string | undefined) ?? process.env.PLATFORM_SIGNING_SECRET;
  if (signingSecret) options.functionSigningSecret = signingSecret;
  if (values['answer-deadline'] !== undefined) {
    options.answerDeadlineMs = Math.max(50, whole('--answer-deadline', values['answer-deadline'] as string, 15_000));
  }
  const platform = await startEmulator(options);
  console.log(
    `${styleText('bold', 'Local platform')} listening on ${styleText('cyan', platform.url)} (in memory; stops with Ctrl+C)\n`,
  );
  for (const account of platform.accounts) {
    const note = account.plan === 'legacy' ? styleText('yellow', ' every /v1 call answers 403') : '';
    console.log(`  ${PLAN_NAMES[account.plan].padEnd(24)} ${styleText('bold', account.apiKey)}${note}`);
  }
  console.log(`\n  channels: ${channels.join(', ')}`);
  if (Object.keys(faults).length > 0) console.log(`  faults: ${JSON.stringify(faults)}`);
  // Everything sync needs, so the line works as printed (a fresh secret: keys of this try only), on
  // the account the agent commands use by default.
  const devAccount = platform.accounts.find((account) => account.plan === DEV_ACCOUNT);
  const trySync = [
    `PLATFORM_BASE_URL=${platform.url}`,
    `PLATFORM_API_KEY=${devAccount?.apiKey ?? ''}`,
    'FUNCTIONS_BASE_URL=http://127.0.0.1:8787',
    `FUNCTIONS_SECRET=${randomBytes(24).toString('base64url')}`,
    'npm run sync',
  ];
  console.log(`\nTry: ${trySync.join(' ')}\n`);
  const stop = () => void platform.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

/** POSTs to an /_emulator endpoint of a running emulator and prints the answer. */
const emulatorCall = async (
  values: Record<string, string | string[] | boolean | undefined>,
  path: string,
  body: unknown,
) => {
  const account = (values.account as string | undefined) ?? DEV_ACCOUNT;
  const dev = readDevState(projectRoot());
  // An account of platform.accounts.json that npm run dev plays wins over a plan of the same name.
  const played = dev?.accounts?.find((candidate) => candidate.name === account);
  if (!isPlan(account) && !played) {
    const names = dev?.accounts?.map((candidate) => candidate.name) ?? [];
    fail(
      `--account is a plan (${PLANS.join(', ')})${names.length > 0 ? ` or an account of the running npm run dev (${names.join(', ')})` : ', or the name of an account of platform.accounts.json while npm run dev runs'}, not "${account}".`,
    );
  }
  const byKey = (values.key as string[] | undefined)?.[0];
  const key = byKey ?? played?.apiKey ?? keysOf([]).get(account as AccountPlan) ?? defaultKey(account as AccountPlan);
  // Named in every refusal, so "no contact ... in this account" says which one was asked.
  const whose = byKey
    ? 'the account of --key'
    : played
      ? `the account "${played.name}"`
      : `the ${PLAN_NAMES[account as AccountPlan]} account`;
  // Without --url: the platform of a running `npm run dev` of this project, wherever it listens.
  const base =
    (values.url as string | undefined) ??
    (byKey ? undefined : played?.baseUrl) ??
    dev?.platformUrl ??
    `http://127.0.0.1:${DEFAULT_PORT}`;
  let response: Response;
  try {
    response = await fetch(`${base.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
    });
  } catch {
    return fail(`Cannot reach the local platform at ${base}: start it with npm run platform.`);
  }
  const answer = (await response.json()) as Record<string, unknown>;
  const error = (answer.error ?? undefined) as { message?: string } | undefined;
  const refusal = error?.message
    ? `${whose} of the local platform at ${base} (${response.status}): ${error.message.replace(/ in this account\b/, ` in ${whose}`)}`
    : undefined;
  return { status: response.status, answer, refusal };
};

const parseJson = (text: string | undefined, what: string): unknown => {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch {
    return fail(`${what} must be JSON, for example '{"city": "Paris"}'.`);
  }
};

const call = async (values: Record<string, string | string[] | boolean | undefined>, name: string, json?: string) => {
  const text = (flag: string) => values[flag] as string | undefined;
  const deadline = text('deadline');
  const reissue = text('reissue');
  const { status, answer, refusal } = await emulatorCall(values, '/_emulator/call', {
    name,
    arguments: parseJson(json, 'The arguments'),
    ...(text('contact') ? { contactId: text('contact') } : {}),
    ...(text('conversation') ? { conversationId: text('conversation') } : {}),
    ...(text('channel') ? { channel: text('channel') } : {}),
    ...(deadline ? { deadlineMs: whole('--deadline', deadline, 15_000) } : {}),
    ...(reissue ? { reissue: { count: whole('--reissue', reissue, 1) } } : {}),
  });
  if (status !== 200) fail(refusal ?? `${status}: ${JSON.stringify(answer)}`);
  const outcome = answer as {
    status: number | null;
    durationMs: number;
    url: string;
    body?: unknown;
    error?: string;
    requestId?: string;
  };
  const ok = outcome.status !== null && outcome.status < 400;
  console.log(
    `${styleText('bold', name)} ${styleText('dim', outcome.url)}\n${styleText(ok ? 'green' : 'red', String(outcome.status ?? 'no answer'))} in ${outcome.durationMs} ms`,
  );
  console.log(outcome.error ?? JSON.stringify(outcome.body, null, 2));
  // Marked as the console marks it: nothing ran, the answer is the conversation's earlier one.
  const consoleUrl = readDevState(projectRoot())?.consoleUrl;
  if (consoleUrl && outcome.requestId && (await answeredFromLedger(consoleUrl, outcome.requestId))) {
    console.log(styleText('yellow', REPEAT_LINE));
  }
  const again = (
    answer as { reissued?: Array<{ status: number | null; body?: unknown; error?: string; requestId?: string }> }
  ).reissued;
  for (const [index, repeat] of (again ?? []).entries()) {
    const fromLedger = consoleUrl && repeat.requestId ? await answeredFromLedger(consoleUrl, repeat.requestId) : false;
    console.log(
      styleText(
        'dim',
        `re-issued #${index + 1}: ${repeat.status ?? 'no answer'}${fromLedger ? ' (repeat: the stored answer)' : ''}`,
      ),
      repeat.error ?? JSON.stringify(repeat.body),
    );
  }
  if (!ok) process.exitCode = 1;
};

const inbound = async (
  values: Record<string, string | string[] | boolean | undefined>,
  contactId: string,
  text: string,
) => {
  const { status, answer, refusal } = await emulatorCall(values, '/_emulator/inbound', { contactId, text });
  if (refusal) {
    console.error(styleText('red', refusal));
    process.exitCode = 1;
    return;
  }
  console.log(JSON.stringify(answer, null, 2));
  if (status >= 400) process.exitCode = 1;
};

const emit = async (values: Record<string, string | string[] | boolean | undefined>, type: string, json?: string) => {
  const { status, answer, refusal } = await emulatorCall(values, '/_emulator/emit', {
    type,
    data: parseJson(json, 'The data'),
  });
  if (refusal) {
    console.error(styleText('red', refusal));
    process.exitCode = 1;
    return;
  }
  console.log(JSON.stringify(answer, null, 2));
  const deliveries = (answer.deliveries ?? []) as Array<{ delivered?: boolean }>;
  if (status >= 400 || deliveries.some((delivery) => delivery.delivered === false)) process.exitCode = 1;
};

/** `agent-functions platform`: serves until stopped, or runs one of its agent commands. */
export const main = async (argv: string[]): Promise<number | undefined> => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      key: { type: 'string', multiple: true },
      channels: { type: 'string' },
      'page-size': { type: 'string' },
      'rate-limit': { type: 'string' },
      'agency-extra': { type: 'string' },
      'signing-secret': { type: 'string' },
      'answer-deadline': { type: 'string' },
      faults: { type: 'string' },
      contact: { type: 'string' },
      conversation: { type: 'string' },
      channel: { type: 'string' },
      deadline: { type: 'string' },
      reissue: { type: 'string' },
      url: { type: 'string' },
      account: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [command, first, second] = positionals;
  if (command === undefined) await serve(values);
  else if (command === 'call' && first) await call(values, first, second);
  else if (command === 'inbound' && first && second) await inbound(values, first, second);
  else if (command === 'emit' && first) await emit(values, first, second);
  else fail(`Unknown command "${positionals.join(' ')}".\n\n${HELP}`);
  return undefined;
};
