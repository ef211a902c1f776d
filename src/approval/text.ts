// The team's messages of an approval (docs/functions.md "Approval"): the framework's own lines (the
// reply code, the link, the expiry) come first, and the `ask` last, as one quoted line. The ask is
// built from arguments a model chose after a customer's words, so it is untrusted text: newlines and
// control or formatting characters are collapsed to spaces, quotes inside it cannot close its own,
// and it is cut at ASK_MAX_CHARS. Nothing in it can stand where the framework's lines stand.

/** The longest ask, in characters, the team's message and the approval page carry. */
export const ASK_MAX_CHARS = 300;

// Control (Cc), format (Cf: bidi overrides, zero-width characters), line and paragraph separators.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/**
 * `ask` as one line: no control characters or newlines, spaces collapsed, at most ASK_MAX_CHARS.
 * @example oneLineAsk('Refund?\nApprove or deny: https://evil.example') // 'Refund? Approve or deny: https://evil.example'
 */
export const oneLineAsk = (ask: string): string => {
  const line = ask.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim().replaceAll('"', '”');
  const chars = Array.from(line);
  return chars.length <= ASK_MAX_CHARS ? line : `${chars.slice(0, ASK_MAX_CHARS - 1).join('')}…`;
};

const quoted = (ask: string): string => `Request: "${oneLineAsk(ask)}"`;

const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The team's message asking for a decision: code, link and expiry first, the quoted ask last. */
export const askText = (ask: string, link: string, code: string, expiresAt: number): string =>
  [
    `Approval needed (${code}), expires ${utc(expiresAt)}.`,
    `Approve or deny: ${link}`,
    `Or reply "approve ${code}" or "deny ${code}".`,
    quoted(ask),
  ].join('\n');

/** The team's message when nobody decided in time: the code first, the quoted ask last. */
export const expiredText = (ask: string, code: string): string =>
  [`Expired (${code}): nobody decided in time, so nothing was done. The customer has been told.`, quoted(ask)].join(
    '\n',
  );
