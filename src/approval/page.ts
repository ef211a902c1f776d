// The approval page the team's link opens (docs/functions.md "Approval"): GET shows only the ask
// and two buttons, and once decided only the state; the decision is a POST that another site cannot
// forge (its Origin and Sec-Fetch-Site must be this Worker's own, and it carries the page's own
// random token). The link is a random 128-bit token the desk keeps only as a hash; it decides once,
// then answers with the first decision; past the request's expiry it decides nothing. Every refusal
// says why, plainly. A link naming an account the Worker does not serve touches no desk.
import { readBody } from '../args.ts';
import { actingIn } from '../conversations/runtime.ts';
import { type Env, isDevelopment, type WithProcess } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { ACCOUNT_QUERY, DEFAULT_ACCOUNT, safeEqual, sha256Hex } from '../keys.ts';
import { createLogger, type Logger } from '../log.ts';
import { ACCOUNT_NAME } from '../platform/protocol/contract.ts';
import { deskOf, workflowOf } from './ask.ts';
import type { ApprovalView, DecideResult } from './desk.ts';
import { DECISION_EVENT } from './params.ts';
import { approvalRuntimes } from './runtime.ts';

/** The path under which links are served: `/approvals/<token>`. */
export const APPROVALS_PATH = '/approvals';
const TOKEN = /^[A-Za-z0-9_-]{22}$/;
const FORM_LIMIT = 1024;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const when = (ms: number | null): string =>
  ms === null ? '' : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // Nothing but this page's own inline style; no scripts, no frames, forms only to itself.
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const page = (status: number, title: string, body: string): Response =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}h1{font-size:1.3rem}.ask{font-size:1.15rem;padding:1rem;border:1px solid #ccc;border-radius:.5rem;background:#fafafa}button{font-size:1rem;padding:.6rem 1.4rem;margin-right:.8rem;border-radius:.4rem;border:1px solid #888;cursor:pointer}.approve{background:#1a7f37;color:#fff;border-color:#1a7f37}.deny{background:#fff;color:#b42318;border-color:#b42318}.small{color:#666;font-size:.9rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    { status, headers: HEADERS },
  );

const STATE_WORDS: Record<string, string> = {
  approved: 'approved',
  denied: 'denied',
  expired: 'expired',
  withdrawn: 'withdrawn',
};

/** What the page says of a request that is no longer waiting. */
const settledPage = (view: ApprovalView, note = ''): Response => {
  if (view.state === 'expired' || (view.state === 'pending' && view.expiresAt <= Date.now())) {
    return page(
      410,
      'This request has expired',
      `<p>Nobody decided before ${escapeHtml(when(view.expiresAt))}, so nothing was done and the customer has been told.${note}</p>`,
    );
  }
  if (view.state === 'withdrawn') {
    return page(
      410,
      'This request was withdrawn',
      '<p>It could not be set up at the time (the team could not be asked, or nothing could wait for the answer), so nothing was done.</p>',
    );
  }
  const by = view.decidedBy?.startsWith('contact:') ? 'by a reply on the messaging platform' : 'from this link';
  // Only the state: once decided, the page no longer shows the ask (the customer's words).
  return page(
    409,
    `Already ${STATE_WORDS[view.state] ?? view.state}`,
    `<p>This request was ${STATE_WORDS[view.state] ?? view.state} ${by} at ${escapeHtml(when(view.decidedAt))}. It is decided once: your answer changed nothing.${note}</p>`,
  );
};

const notValid = () =>
  page(
    404,
    'This link is not valid',
    '<p>It may have been copied incompletely, or belong to another account. Nothing was changed. Use the link exactly as it arrived in the message.</p>',
  );

const refused = (why: string) =>
  page(
    403,
    'This request was refused',
    `<p>${escapeHtml(why)} Nothing was changed. Open the link from the message again and decide there.</p>`,
  );

/** Whether a Worker with approvals serves `account` (its accounts' resolver knows it). */
const served = async (env: Env, account: string): Promise<boolean> =>
  (await actingIn(approvalRuntimes(), env, account, quiet)) !== undefined;

// An unknown account is the page's 404; the resolver's own line about it is not worth logging here.
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Wakes the workflow instance waiting for `id` once the desk holds its decision, a few times: if
 * every try is lost, the instance still reads the decision at the expiry at the latest.
 */
export const wake = async (env: Env, id: string, view: ApprovalView): Promise<boolean> => {
  const workflow = workflowOf(env);
  for (let attempt = 0; workflow && attempt < 3; attempt++) {
    try {
      const instance = await workflow.get(id);
      await instance.sendEvent({
        type: DECISION_EVENT,
        payload: { state: view.state, by: view.decidedBy, at: view.decidedAt },
      });
      return true;
    } catch {
      await scheduler.wait(200 * 2 ** attempt);
    }
  }
  createLogger({ approval: id }).error('approval_wake_failed', {
    hint: 'the decision is kept; the request settles it at its expiry',
  });
  return false;
};

/**
 * Whether a POST comes from this Worker's own page: never another site's form or script. A browser
 * says so itself with Sec-Fetch-Site (no page can set it); one that does not send it sends Origin,
 * which must name the host the request was sent to (behind a proxy the Worker's url may differ).
 */
const sameSite = (request: Request, env: Env): boolean => {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site === 'same-origin';
  const origin = request.headers.get('origin');
  // Browsers send Origin with every POST; a program without it is no other site's page.
  if (origin === null) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const own = [new URL(request.url).host, request.headers.get('host')];
  if (env.FUNCTIONS_BASE_URL) {
    try {
      own.push(new URL(env.FUNCTIONS_BASE_URL).host);
    } catch {}
  }
  return own.includes(host);
};

/**
 * Serves `/approvals/<token>`: GET shows the ask, POST decides it.
 * @example routes.push(['/approvals/*', serveApprovalPage])
 */
export const serveApprovalPage = async (
  request: Request,
  env: Env,
  ctx: { waitUntil(promise: Promise<unknown>): void },
): Promise<Response> => {
  const url = new URL(request.url);
  const token = url.pathname.slice(APPROVALS_PATH.length + 1).replace(/\/+$/, '');
  const account = url.searchParams.get(ACCOUNT_QUERY) ?? DEFAULT_ACCOUNT;
  // Spelled out, so a production bundle drops it (src/env.ts): the dev console's list and buttons.
  if (token === '' && (globalThis as WithProcess).process?.env.NODE_ENV !== 'production' && isDevelopment(env)) {
    return serveDevDesk(request, env, account, ctx);
  }
  if (!TOKEN.test(token) || !ACCOUNT_NAME.test(account)) return notValid();
  // An account this Worker does not serve has no desk: none is touched (or created) for it.
  if (!(await served(env, account))) return notValid();
  const desk = deskOf(env, account);
  if (!desk)
    return page(
      503,
      'Approvals are not available',
      '<p>This Worker is not set up for approvals. Nothing was changed.</p>',
    );
  const linkHash = await sha256Hex(token);
  const view = await desk.view(linkHash);
  if (!view) return notValid();
  if (request.method === 'GET' || request.method === 'HEAD') {
    if (view.state !== 'pending' || view.expiresAt <= Date.now()) return settledPage(view);
    return page(
      200,
      'Approval needed',
      `<p class="ask">${escapeHtml(view.ask)}</p><form method="post"><input type="hidden" name="page" value="${escapeHtml(view.pageToken)}"><button class="approve" name="decision" value="approve">Approve</button><button class="deny" name="decision" value="deny">Deny</button></form><p class="small">Reply code ${escapeHtml(view.code)}. Expires ${escapeHtml(when(view.expiresAt))}. Decided once: the first answer counts.</p>`,
    );
  }
  if (request.method !== 'POST') {
    return new Response('Use GET to see the request and the form on it to decide.', {
      status: 405,
      headers: { allow: 'GET, POST' },
    });
  }
  if (!sameSite(request, env)) return refused('The decision did not come from this page.');
  // Decided once: a second decision, from whatever form, is answered with the first.
  if (view.state !== 'pending') return settledPage(view);
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBody(request, FORM_LIMIT, Date.now() + 5_000));
  } catch (error) {
    if (error instanceof FunctionError) return refused('The form sent was too large.');
    throw error;
  }
  const decision = form.get('decision');
  if ((decision !== 'approve' && decision !== 'deny') || !(await safeEqual(form.get('page') ?? '', view.pageToken))) {
    return refused('The form was not the one this page shows.');
  }
  const result: DecideResult = await desk.decide({ linkHash }, decision === 'approve', `link:${linkHash.slice(0, 12)}`);
  if (result.outcome === 'unknown') return notValid();
  if (result.outcome !== 'decided') return settledPage(result.view);
  createLogger({ approval: result.view.id, function: result.view.name }).info('approval_decided', {
    decision: result.view.state,
    decidedBy: result.view.decidedBy,
    decidedAt: result.view.decidedAt,
  });
  ctx.waitUntil(wake(env, result.view.id, result.view));
  const approved = result.view.state === 'approved';
  return page(
    200,
    approved ? 'Approved' : 'Denied',
    `<p>${approved ? 'Approved: it is being carried out now, and the customer will get a message with the result.' : 'Denied: nothing will be done, and the customer will get a message saying so.'}</p>`,
  );
};

/**
 * Under `npm run dev` only: `GET /approvals` lists the pending requests of an account for the dev
 * console, and `POST /approvals` `{ code, decision }` decides one as the console's buttons do.
 */
const serveDevDesk = async (
  request: Request,
  env: Env,
  account: string,
  ctx: { waitUntil(promise: Promise<unknown>): void },
): Promise<Response> => {
  if (!ACCOUNT_NAME.test(account) || !(await served(env, account))) {
    return Response.json({ error: `This Worker serves no account "${account.slice(0, 64)}".` }, { status: 404 });
  }
  const desk = deskOf(env, account);
  if (!desk) return Response.json({ error: 'No approval desk: bind APPROVAL_DESK.' }, { status: 503 });
  if (request.method === 'GET') return Response.json({ approvals: await desk.pending() });
  const text = await readBody(request, FORM_LIMIT, Date.now() + 5_000).catch(() => '');
  let body: { code?: unknown; decision?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {}
  if (typeof body.code !== 'string' || (body.decision !== 'approve' && body.decision !== 'deny')) {
    return Response.json({ error: 'Send { "code": "K7QM", "decision": "approve" | "deny" }.' }, { status: 400 });
  }
  const result = await desk.decide({ code: body.code }, body.decision === 'approve', 'console');
  if (result.outcome === 'decided') {
    createLogger({ approval: result.view.id, function: result.view.name }).info('approval_decided', {
      decision: result.view.state,
      decidedBy: 'console',
      decidedAt: result.view.decidedAt,
    });
    ctx.waitUntil(wake(env, result.view.id, result.view));
  }
  return Response.json({ outcome: result.outcome, ...('view' in result ? { state: result.view.state } : {}) });
};
