// Registered urls carry each function's key; plans end up in CI logs and job summaries, so every
// url is shown with its query values hidden, but for the account it names (a name, not a secret).
import { ACCOUNT_QUERY } from 'agent-functions/worker';

/**
 * The url with every query value but the account's replaced by `***`.
 * @example redactUrl('https://a.dev/functions/x?key=abc') // 'https://a.dev/functions/x?key=***'
 * @example redactUrl('https://a.dev/functions/x?account=acme&key=abc') // 'https://a.dev/functions/x?account=acme&key=***'
 */
export const redactUrl = (url: string): string => {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) =>
      pair.includes('=') && !pair.startsWith(`${ACCOUNT_QUERY}=`) ? `${pair.slice(0, pair.indexOf('='))}=***` : pair,
    )
    .join('&');
  return `${url.slice(0, at)}?${query}`;
};

/** Whether two urls differ only in their query values (for us: the key, after a secret rotation). */
export const onlyKeyDiffers = (a: string, b: string): boolean => a !== b && redactUrl(a) === redactUrl(b);

/** The forms a secret takes in a body that echoes it: as is, JSON-escaped (`\/` too), url-encoded in either hex case. */
const formsOf = (secret: string): string[] => {
  const json = JSON.stringify(secret).slice(1, -1);
  const encoded = [encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
  const forms = [
    secret,
    json,
    json.replaceAll('/', '\\/'),
    ...encoded,
    ...encoded.map((text) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())),
  ];
  // Longest first, so a form that contains another is hidden whole.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
};

/**
 * `text` with every form of `secret` (as is, JSON-escaped, url-encoded) replaced by `***`.
 * @example redactSecret('{"key":"sk\\/abc"}', 'sk/abc') // '{"key":"***"}'
 */
export const redactSecret = (text: string, secret: string | undefined): string =>
  secret ? formsOf(secret).reduce((shown, form) => shown.replaceAll(form, '***'), text) : text;
