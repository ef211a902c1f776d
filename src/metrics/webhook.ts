// The optional copy of every alert to an outbound webhook (ALERTS_WEBHOOK_URL), signed as Standard
// Webhooks sign: `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256
// of "id.timestamp.body">` under ALERTS_WEBHOOK_SECRET (a `whsec_` secret is base64 after its
// prefix, as those libraries issue it; any other is used as text). The id is the same for every
// attempt at one message, so a receiver that saw it already can drop the repeat.
import type { SendOutcome } from './incidents.ts';

const encoder = new TextEncoder();

const keyBytes = (secret: string): Uint8Array<ArrayBuffer> => {
  if (!secret.startsWith('whsec_')) return encoder.encode(secret) as Uint8Array<ArrayBuffer>;
  const raw = atob(secret.slice('whsec_'.length));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

/**
 * The Standard Webhooks headers of `body` sent as `id` at `now` (milliseconds).
 * @example await standardWebhookHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', '{}', Date.now())
 */
export const standardWebhookHeaders = async (
  secret: string,
  id: string,
  body: string,
  now: number,
): Promise<Record<string, string>> => {
  const timestamp = String(Math.floor(now / 1000));
  const key = await crypto.subtle.importKey('raw', keyBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`)));
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${btoa(String.fromCharCode(...mac))}`,
  };
};

/**
 * POSTs `payload` to `url`, signed; an answer other than 2xx is refused (nothing delivered: try
 * again), no answer within 10 s is ambiguous (it may have arrived).
 */
export const postWebhook = async (
  webhook: { url: string; secret: string },
  id: string,
  payload: object,
  now: number,
): Promise<SendOutcome> => {
  const body = JSON.stringify(payload);
  const headers = await standardWebhookHeaders(webhook.secret, id, body, now);
  try {
    const response = await fetch(webhook.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    return response.ok ? 'sent' : 'refused';
  } catch {
    return 'ambiguous';
  }
};
