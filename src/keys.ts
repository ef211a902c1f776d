// Per-function invocation keys (docs/platform-contract.md §4):
// key = base64url(HMAC-SHA256(FUNCTIONS_SECRET, "function:" + name)).
// Web Crypto and zod only, so the Worker and the Node sync share this file.
import { util } from 'zod/v4/core';

/** Where a caller may put a function's key beside `Authorization: Bearer` (docs/platform-contract.md §4). */
export const KEY_QUERY = 'key';
/** The query parameter naming the account of a url that is not the first account's (docs/platform-contract.md §10). */
export const ACCOUNT_QUERY = 'account';
/** The one account of a Worker without the accounts option: its urls name none. */
export const DEFAULT_ACCOUNT = 'default';
export const KEY_HEADER = 'X-Function-Key';

const encoder = new TextEncoder();
const KEY_CONTEXT = 'function:';

// Importing a key costs more than the HMAC itself; the secret changes only on deploy.
const keyCache = new Map<string, Promise<CryptoKey>>();
// The same keys once imported, so a call verifies without awaiting a promise that settled long ago.
const readyKeys = new Map<string, CryptoKey>();

/** An HMAC-SHA256 key for `secret`, imported once per isolate. */
export const hmacKey = (secret: string): Promise<CryptoKey> => {
  let key = keyCache.get(secret);
  if (!key) {
    if (keyCache.size >= 8) {
      keyCache.clear();
      readyKeys.clear();
    }
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keyCache.set(secret, key);
    key.then((ready) => readyKeys.set(secret, ready)).catch(() => keyCache.delete(secret));
  }
  return key;
};

/** Encodes bytes as unpadded base64url. */
export const toBase64Url = (bytes: ArrayBuffer | Uint8Array): string => {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};

/** Decodes unpadded base64url; undefined when the text is not base64url. */
export const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  // zod's decoder (a plain loop, as fast as any here) is in every Worker's bundle already.
  return util.base64urlToUint8Array(text) as Uint8Array<ArrayBuffer>;
};

/** Each byte's two hex digits, made on first use. */
let hexDigits: string[] | undefined;

/** `bytes` as lowercase hex: a table's digits per byte, without an array and a string per byte as zod's does. */
const toHex = (bytes: Uint8Array): string => {
  hexDigits ??= Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += hexDigits[bytes[i] as number];
  return hex;
};

/** The hex SHA-256 of `text`: ledger names and keys that never show what they were made from. */
export const sha256Hex = async (text: string): Promise<string> =>
  toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));

const derive = async (secret: string, context: string): Promise<string> =>
  toBase64Url(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(context)));

// HMAC verification compares in constant time: the answer leaks nothing about how close a guess was.
const verify = async (secret: string, context: string, presented: string): Promise<boolean> => {
  const bytes = fromBase64Url(presented);
  if (bytes?.length !== 32) return false;
  return crypto.subtle.verify('HMAC', readyKeys.get(secret) ?? (await hmacKey(secret)), bytes, encoder.encode(context));
};

// A name has no "@" (FUNCTION_NAME) and neither has an account name (ACCOUNT_NAME): the key of
// `name` for account `a` is never another name's, nor another account's.
const functionContext = (name: string, account: string | undefined) =>
  account === undefined ? KEY_CONTEXT + name : `${KEY_CONTEXT}${name}@${account}`;

/**
 * The invocation key of one function: for the first account without `account`
 * (docs/platform-contract.md §4), for any other bound to that account too (§10).
 * @example await functionKey(env.FUNCTIONS_SECRET, 'lookup_warranty') // 'Zk3...'
 * @example await functionKey(env.FUNCTIONS_SECRET, 'lookup_warranty', 'client-acme') // another key
 */
export const functionKey = (secret: string, name: string, account?: string): Promise<string> =>
  derive(secret, functionContext(name, account));

/** Whether `presented` is the key of function `name` (for `account`, when given), compared in constant time. */
export const isFunctionKey = (secret: string, name: string, presented: string, account?: string): Promise<boolean> =>
  verify(secret, functionContext(name, account), presented);

// No function name contains a colon-free "manifest" after "function:", so the two never collide.
const MANIFEST_CONTEXT = 'manifest';

/**
 * The key that reads the manifest (`GET /functions`): derived, so FUNCTIONS_SECRET itself never
 * travels over the wire.
 * @example fetch(`${origin}/functions`, { headers: { authorization: `Bearer ${await manifestKey(secret)}` } })
 */
export const manifestKey = (secret: string): Promise<string> => derive(secret, MANIFEST_CONTEXT);

/** Whether `presented` is the manifest key, compared in constant time. */
export const isManifestKey = (secret: string, presented: string): Promise<boolean> =>
  verify(secret, MANIFEST_CONTEXT, presented);

// "mcp" is not "function:" + a name, nor "manifest": the three key families never collide.
const MCP_CONTEXT = 'mcp';

/**
 * The static bearer token of `/mcp` (docs/platform-contract.md §8), for MCP clients that only take a header.
 * @example { headers: { authorization: `Bearer ${await mcpKey(env.FUNCTIONS_SECRET)}` } }
 */
export const mcpKey = (secret: string): Promise<string> => derive(secret, MCP_CONTEXT);

/** Whether `presented` is the static MCP token, compared in constant time. */
export const isMcpKey = (secret: string, presented: string): Promise<boolean> => verify(secret, MCP_CONTEXT, presented);

// "accounts" is not "function:" + a name, nor "manifest" nor "mcp": the four key families never collide.
const ACCOUNTS_CONTEXT = 'accounts';

/**
 * The key of the account store's admin endpoint (`/accounts`, docs/sync-and-accounts.md), which
 * `npm run accounts` sends: derived, so FUNCTIONS_SECRET itself never travels.
 * @example { headers: { authorization: `Bearer ${await accountsKey(env.FUNCTIONS_SECRET)}` } }
 */
export const accountsKey = (secret: string): Promise<string> => derive(secret, ACCOUNTS_CONTEXT);

/** Whether `presented` is the account store's admin key, compared in constant time. */
export const isAccountsKey = (secret: string, presented: string): Promise<boolean> =>
  verify(secret, ACCOUNTS_CONTEXT, presented);

/**
 * Constant-time equality of two strings that are not keys (an email a customer gave, say).
 * Both sides are hashed first so neither the length nor the content leaks through timing.
 * @example await safeEqual(order.email, args.email)
 */
export const safeEqual = async (a: string, b: string): Promise<boolean> => {
  const key = await hmacKey('safe-equal');
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(a));
  return crypto.subtle.verify('HMAC', key, mac, encoder.encode(b));
};
