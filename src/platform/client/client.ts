// The typed client of the platform's REST API (spec endpoints plus docs/platform-contract.md §5). Fetch only,
// so the Worker (functions) and Node (sync) share it.
import type { z } from 'zod';
import {
  CURSOR_PARAM,
  DEFAULT_KEY_PLACEMENT,
  DEFAULT_MAX_RESPONSE_BYTES,
  type KeyPlacement,
  MAX_PAGES,
  SAFE_ID,
  SECRET_KEYS,
  WEBHOOKS_PATH,
} from '../protocol/contract.ts';
import type { FunctionRecord, FunctionRecordUpdate, RemoteFunction } from '../protocol/function.ts';
import { parsePage, toRemoteFunction, toWebhook, unwrapRecord, withId } from '../protocol/normalise.ts';
import {
  type ContactInput,
  contactInput,
  describeIssues,
  functionRecord,
  functionRecordUpdate,
  type MessageInput,
  messageInput,
  type SubAccountInput,
  subAccountInput,
  type WebhookInput,
  type WebhookUpdate,
  webhookInput,
  webhookUpdate,
} from '../protocol/schemas.ts';
import type { Contact, Message, SigningSecret, SubAccount, Webhook } from '../protocol/types.ts';
import { PlatformError, ValidationError } from './errors.ts';
import { printable } from './printable.ts';
import { DEFAULT_RETRY, type RetryOptions } from './retry.ts';
import { createTransport, type RequestInfo, type RetryInfo, type Transport, tooLarge } from './transport.ts';

export interface PlatformClientOptions {
  /** The account's `{base_url}` (PLATFORM_BASE_URL); required, there is no default. */
  baseUrl: string;
  /** The account's API key (PLATFORM_API_KEY). */
  apiKey: string;
  /** `header` (X-API-Key, default), `bearer` (Authorization) or `query` (?apiKey=, for quick tests). */
  keyPlacement?: KeyPlacement;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Time limit of each attempt in milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Cap of one answer's body in bytes (default 4 MiB); a list's pages together may hold 8 times this. */
  maxResponseBytes?: number;
  retry?: RetryOptions;
  /** Aborts every request of this client, including waits between retries. */
  signal?: AbortSignal;
  /** Called after every attempt, for counting requests. */
  onRequest?: (info: RequestInfo) => void;
  /** Called before each wait for a retry: what failed, the next attempt, how long the wait is. */
  onRetry?: (info: RetryInfo) => void;
  /** Source of backoff jitter, in [0, 1) (default Math.random). */
  random?: () => number;
  /**
   * Waits between attempts (default: a timer, aborted with `signal`). Tests pass one that records
   * the wait and returns at once.
   */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Every endpoint the client covers. */
export interface PlatformClient {
  contacts: {
    /** Every contact, following pages when the platform paginates. */
    list(): Promise<Contact[]>;
    create(input: ContactInput): Promise<Contact>;
  };
  messages: { send(input: MessageInput): Promise<Message> };
  webhooks: {
    /** Every webhook of the account, following every page (docs/platform-contract.md §7, A). */
    list(): Promise<Webhook[]>;
    create(input: WebhookInput): Promise<Webhook>;
    /** Changes its url or events (docs/platform-contract.md §7, A). */
    update(id: string, input: WebhookUpdate): Promise<Webhook>;
    delete(id: string): Promise<void>;
    signingSecret: {
      get(webhookId: string): Promise<SigningSecret>;
      /** Mints a new secret (the old one stops signing). */
      rotate(webhookId: string): Promise<SigningSecret>;
      delete(webhookId: string): Promise<void>;
    };
  };
  customFunctions: {
    /** Every registered function, following every page. */
    list(): Promise<RemoteFunction[]>;
    create(input: FunctionRecord): Promise<RemoteFunction>;
    update(id: string, input: FunctionRecordUpdate): Promise<RemoteFunction>;
    delete(id: string): Promise<void>;
  };
  subAccounts: { create(input: SubAccountInput): Promise<SubAccount> };
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The payload as the schema outputs it, or a ValidationError naming every problem; nothing is sent. */
const valid = <S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(`Not sent: the ${what} is invalid. ${describeIssues(result.error).join('; ')}.`, {
    status: 0,
    code: 'invalid_payload',
    details: result.error.issues,
  });
};

/** The id as one path segment, or a ValidationError: an id like `..` or `a/b` would address another resource. */
const segment = (id: string, what: string): string => {
  if (typeof id !== 'string' || !SAFE_ID.test(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(printable(id, 80)) : String(id);
    throw new ValidationError(
      `Not sent: the ${what} id ${shown} is not one safe path segment (letters, digits, ".", "_", "~", "-"; not "." or ".."). The platform sent an id this client will not put in a url.`,
      { status: 0, code: 'invalid_id' },
    );
  }
  return id;
};

const secretOf = (body: unknown, webhookId: string): SigningSecret => {
  const record = unwrapRecord(body);
  const secret = SECRET_KEYS.map((key) => record[key]).find((value) => typeof value === 'string');
  return { webhookId, secret: (secret as string | undefined) ?? '' };
};

/** Every record of a list, following cursors and Link headers; refuses to send the key to another origin. */
const listAll = async <T>(
  transport: Transport,
  path: string,
  map: (item: unknown) => T,
  maxBytes: number,
): Promise<T[]> => {
  const results: T[] = [];
  const seen = new Set<string>();
  let target: string | URL = path;
  let bytes = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await transport('GET', target);
    bytes += answer.bytes;
    if (bytes > maxBytes) throw tooLarge('GET', path, answer.status, maxBytes, 'list (all pages together)');
    const { items, next } = parsePage(answer.body, answer.headers);
    results.push(...items.map(map));
    if (!next) return results;
    let following: URL;
    if (/^(?:https?:\/\/|\/)/i.test(next)) following = new URL(next, answer.url);
    else {
      following = new URL(answer.url);
      following.searchParams.set(CURSOR_PARAM, next);
    }
    if (following.origin !== answer.url.origin) {
      throw new PlatformError(
        `GET ${path}: the next page is on another origin (${following.origin}); not following it with the API key.`,
        {
          status: answer.status,
          code: 'foreign_next_page',
        },
      );
    }
    if (seen.has(following.href)) {
      throw new PlatformError(`GET ${path}: the platform sent the same next page twice; stopping instead of looping.`, {
        status: answer.status,
        code: 'pagination_loop',
      });
    }
    seen.add(following.href);
    target = following;
  }
  throw new PlatformError(`GET ${path}: more than ${MAX_PAGES} pages; stopping.`, {
    status: 200,
    code: 'too_many_pages',
  });
};

/**
 * A client of the platform's REST API.
 * @example
 * const platform = createPlatformClient({ baseUrl: env.PLATFORM_BASE_URL, apiKey: env.PLATFORM_API_KEY });
 * await platform.contacts.create({ name: 'Ada', phone: '+14155550123', channel: 'whatsapp' });
 */
export const createPlatformClient = (options: PlatformClientOptions): PlatformClient => {
  if (!options.apiKey) throw new TypeError('The platform client needs an API key (PLATFORM_API_KEY).');
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new TypeError(`maxResponseBytes must be a positive whole number of bytes, not ${maxResponseBytes}.`);
  }
  const maxListBytes = maxResponseBytes * 8;
  const transport = createTransport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    keyPlacement: options.keyPlacement ?? DEFAULT_KEY_PLACEMENT,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.wait ? { wait: options.wait } : {}),
  });
  const post = async (path: string, body?: unknown) => (await transport('POST', path, { body })).body;

  return {
    contacts: {
      list: () => listAll(transport, '/v1/contacts', (item) => withId<Contact>(item), maxListBytes),
      create: async (input) => withId<Contact>(await post('/v1/contacts', valid(contactInput, input, 'contact'))),
    },
    messages: {
      send: async (input) => withId<Message>(await post('/v1/messages', valid(messageInput, input, 'message'))),
    },
    webhooks: {
      list: () => listAll(transport, WEBHOOKS_PATH, toWebhook, maxListBytes),
      create: async (input) => toWebhook(await post(WEBHOOKS_PATH, valid(webhookInput, input, 'webhook'))),
      update: async (id, input) =>
        toWebhook(
          (
            await transport('PATCH', `${WEBHOOKS_PATH}/${segment(id, 'webhook')}`, {
              body: valid(webhookUpdate, input, 'webhook update'),
            })
          ).body,
        ),
      delete: async (id) => {
        await transport('DELETE', `${WEBHOOKS_PATH}/${segment(id, 'webhook')}`, { successOnRetry: [404] });
      },
      signingSecret: {
        get: async (id) =>
          secretOf((await transport('GET', `${WEBHOOKS_PATH}/${segment(id, 'webhook')}/signing-secret`)).body, id),
        rotate: async (id) => secretOf(await post(`${WEBHOOKS_PATH}/${segment(id, 'webhook')}/signing-secret`), id),
        delete: async (id) => {
          await transport('DELETE', `${WEBHOOKS_PATH}/${segment(id, 'webhook')}/signing-secret`, {
            successOnRetry: [404],
          });
        },
      },
    },
    customFunctions: {
      list: () => listAll(transport, '/v1/custom-functions', toRemoteFunction, maxListBytes),
      create: async (input) =>
        toRemoteFunction(await post('/v1/custom-functions', valid(functionRecord, input, 'custom function'))),
      update: async (id, input) =>
        toRemoteFunction(
          (
            await transport('PATCH', `/v1/custom-functions/${segment(id, 'custom function')}`, {
              body: valid(functionRecordUpdate, input, 'custom function update'),
            })
          ).body,
        ),
      delete: async (id) => {
        await transport('DELETE', `/v1/custom-functions/${segment(id, 'custom function')}`, { successOnRetry: [404] });
      },
    },
    subAccounts: {
      create: async (input) =>
        withId<SubAccount>(await post('/v1/sub-accounts', valid(subAccountInput, input, 'sub-account'))),
    },
  };
};
