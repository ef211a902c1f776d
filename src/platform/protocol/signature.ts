// Webhook-style signatures as the platform spec defines them:
// X-Webhook-Signature: v1=<hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`)>.
import { util } from 'zod/v4/core';
import { hmacKey } from '../../keys.ts';

const encoder = new TextEncoder();

/** How far a signed timestamp may be from now, either way (docs/platform-contract.md §4). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Why a signature was refused, or `ok`. */
export type SignatureVerdict = 'ok' | 'malformed' | 'stale' | 'mismatch';

/**
 * The `X-Webhook-Signature` value for a body signed at `timestamp` (unix seconds).
 * @example await signWebhook(secret, '1700000000', '{"a":1}') // 'v1=9f2c...'
 */
export const signWebhook = async (secret: string, timestamp: string, rawBody: string): Promise<string> =>
  `v1=${util.uint8ArrayToHex(new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(`${timestamp}.${rawBody}`))))}`;

/** A signature taken apart: its timestamp and MAC, or why it cannot be checked at all. */
export type SignatureParts =
  | { verdict: 'malformed' | 'stale' }
  | { verdict: 'ok'; timestamp: string; mac: Uint8Array<ArrayBuffer> };

/**
 * The shape and age checks that need no secret: a malformed or stale signature is refused before
 * any secret is looked up. `now` is in milliseconds.
 * @example signatureParts(req.headers.get('x-webhook-timestamp'), sig).verdict // 'stale'
 */
export const signatureParts = (
  timestamp: string | null,
  signature: string | null,
  options: { toleranceSeconds?: number; now?: number } = {},
): SignatureParts => {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return { verdict: 'malformed' };
  const match = /^v1=([0-9a-fA-F]{64})$/.exec(signature.trim());
  if (!match?.[1]) return { verdict: 'malformed' };
  // 64 hex digits, checked above; zod's decoder is in every Worker's bundle already.
  const mac = util.hexToUint8Array(match[1]) as Uint8Array<ArrayBuffer>;
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const skew = Math.abs((options.now ?? Date.now()) / 1000 - Number(timestamp));
  return skew > tolerance ? { verdict: 'stale' } : { verdict: 'ok', timestamp, mac };
};

/** Whether `secret` made `mac` over the body at `timestamp`, compared in constant time by Web Crypto. */
export const macMatches = async (
  secret: string,
  parts: { timestamp: string; mac: Uint8Array<ArrayBuffer> },
  rawBody: string,
): Promise<boolean> =>
  crypto.subtle.verify('HMAC', await hmacKey(secret), parts.mac, encoder.encode(`${parts.timestamp}.${rawBody}`));

/**
 * Checks a delivery's signature in constant time, with a tolerance window against replays of old
 * captures. `now` is in milliseconds.
 * @example await verifyWebhook(secret, req.headers.get('x-webhook-timestamp'), sig, body)
 */
export const verifyWebhook = async (
  secret: string,
  timestamp: string | null,
  signature: string | null,
  rawBody: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<SignatureVerdict> => {
  const parts = signatureParts(timestamp, signature, options);
  if (parts.verdict !== 'ok') return parts.verdict;
  return (await macMatches(secret, parts, rawBody)) ? 'ok' : 'mismatch';
};

/**
 * The two headers that sign a delivery of `rawBody` now (or at `now`, in milliseconds).
 * @example await fetch(url, { method: 'POST', body, headers: await webhookHeaders(secret, body) })
 */
export const webhookHeaders = async (
  secret: string,
  rawBody: string,
  now: number = Date.now(),
): Promise<{ 'X-Webhook-Timestamp': string; 'X-Webhook-Signature': string }> => {
  const timestamp = String(Math.floor(now / 1000));
  return { 'X-Webhook-Timestamp': timestamp, 'X-Webhook-Signature': await signWebhook(secret, timestamp, rawBody) };
};
