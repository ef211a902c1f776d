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
