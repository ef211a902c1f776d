// What the local console of `npm run dev` is given and what it shows: its options, the functions
// and accounts it lists, and the running console dev holds.
import type { Finding } from '../../lint/types.ts';
import type { StoredRecord } from '../../stats/aggregate.ts';
import type { WorkerLine } from '../workerLog.ts';

/** A function as the console shows it. */
export interface ConsoleFunction {
  name: string;
  /** What the platform holds (description, parameter map, url with the key masked), or null before sync. */
  registered: { description: string; parameters: Record<string, string>; url: string } | null;
  /** The Worker's JSON Schema of the arguments, for the form. */
  jsonSchema: unknown;
  /** With several accounts: those that hold its registration. */
  registeredOn?: string[];
  /** What the description linter finds in what the model reads (agent-functions lint functions). */
  findings?: Pick<Finding, 'severity' | 'rule' | 'parameter' | 'message' | 'fix'>[];
}

/** The functions, and why none (or not all) can be shown: the Worker's manifest fails as a whole on a broken definition. */
export interface ConsoleListing {
  functions: ConsoleFunction[];
  problem?: string;
}

export interface ConsoleOptions {
  /** Preferred port; when taken (or 0), a free one. */
  port: number;
  /** Every function, read fresh on each page load. */
  functions: () => Promise<ConsoleFunction[] | ConsoleListing>;
  /** The local platform and the account dev uses: its activity joins the console's timeline. */
  platform?: { url: string; apiKey: string };
  /**
   * Every account dev plays, the first first (instead of `platform`): each one's activity joins the
   * timeline, named, and a call can be made as any one's agent. `url` is the account's base url.
   */
  accounts?: ConsoleAccount[];
  /** The url `account` (default: the first) calls for `name` (key included): the console calls exactly that. */
  urlOf: (name: string, account?: string) => Promise<string | undefined>;
  /** What the Worker itself logged (dev reads it from wrangler's output): calls from every source, deliveries handled. */
  workerLog?: () => WorkerLine[];
  /** The record of every call the Worker made (dev's ring, records.ts): GET /api/stats and the health view. */
  records?: () => Iterable<StoredRecord>;
  /** The conversation each call comes from (docs/platform-contract.md §9), added beside the arguments; per account. */
  conversation?: (
    account?: string,
  ) => Promise<{ contactId: string; conversationId: string; channel: string } | undefined>;
}

/** An account of the local platform as the console knows it. */
export interface ConsoleAccount {
  name: string;
  /** Its base url on the local platform. */
  url: string;
  apiKey: string;
}

export interface RunningConsole {
  url: string;
  /** Set when the port asked for was taken and another one was chosen: dev prints it. */
  note?: string;
  close(): Promise<void>;
}

/** The registered url with its key hidden, as the console shows it. */
export const maskKey = (url: string): string => url.replace(/([?&]key=)[^&]*/g, '$1***');
