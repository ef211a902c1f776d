// The console's one page: plain HTML and a small script that builds everything with DOM calls
// (textContent only, so a description or an answer can never inject markup).

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f6f6f7; }
header { background: #1d1d1f; color: #fff; padding: 12px 20px; }
header h1 { font-size: 17px; margin: 0; }
header p { margin: 2px 0 0; color: #bbb; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; padding: 16px 20px; }
section.fn, #log { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; }
#log { position: sticky; top: 16px; align-self: start; max-height: calc(100vh - 32px); overflow: auto; }
h2 { font-size: 16px; margin: 0 0 6px; font-family: ui-monospace, monospace; }
h3 { font-size: 12px; text-transform: uppercase; color: #666; margin: 10px 0 4px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f3f5; padding: 8px; border-radius: 6px; margin: 0; font-size: 12.5px; }
code { font-size: 12.5px; word-break: break-all; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
td, th { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
label { display: block; margin: 6px 0 2px; font-weight: 600; }
label small { font-weight: 400; color: #666; }
input, select, textarea { width: 100%; box-sizing: border-box; padding: 5px; font: inherit; }
button { margin-top: 10px; padding: 6px 14px; font: inherit; cursor: pointer; }
.status { font-weight: 700; }
.ok { color: #137333; } .refused { color: #b06000; } .failed { color: #c5221f; }
.unregistered { color: #c5221f; }
.finding { font-size: 13px; margin: 2px 0; } .finding.error { color: #c5221f; } .finding.warning { color: #b06000; }
.message { background: #fff4e5; border-left: 3px solid #b06000; padding: 6px 8px; margin: 6px 0; }
.problem { background: #fce8e6; border-left: 3px solid #c5221f; padding: 8px 10px; margin: 0 0 16px; white-space: pre-wrap; }
#toc { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 8px 16px; margin-bottom: 16px; columns: 3 12em; }
#toc a { display: block; font-family: ui-monospace, monospace; font-size: 12.5px; text-decoration: none; color: #1a56c4; }
#toc a.unregistered { color: #c5221f; }
.source, .kind { font-size: 11px; color: #666; text-transform: uppercase; }
.sent { background: #e6f4ea; border-left: 3px solid #137333; padding: 4px 8px; margin: 4px 0; font-size: 12.5px; }
.sent.inbound { background: #e8f0fe; border-left-color: #1a56c4; }
.hook { font-size: 12.5px; margin: 2px 0; }
/* Arguments and answers wrap at their JSON's punctuation, in a column wide enough to read (never a character a line). */
.args { display: block; font-family: ui-monospace, monospace; font-size: 11.5px; color: #444; overflow-wrap: anywhere; min-width: 12em; max-width: 24em; }
#log td pre { min-width: 16em; overflow-wrap: anywhere; word-break: normal; }
.deferred { font-size: 12.5px; margin: 4px 0; color: #5b3a9e; }
.deferred.waiting { font-style: italic; }
#accounts { margin-top: 8px; color: #ddd; }
#accounts select { width: auto; margin-left: 6px; }
.account { display: inline-block; font-size: 11px; background: #ede7f6; color: #4a2a8a; border-radius: 4px; padding: 0 5px; margin-right: 4px; }
.repeated { font-size: 12.5px; margin: 4px 0; color: #b06000; font-weight: 600; }
#conversation { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 6px 16px; margin: 16px 20px 0; display: flex; gap: 12px; align-items: center; }
#conversation button { margin: 0; }
#health { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 8px 16px; margin: 16px 20px 0; max-height: 40vh; overflow: auto; }
#health h2 { display: inline-block; margin-right: 12px; }
#health select { width: auto; }
#health td.num, #health th.num { text-align: right; font-variant-numeric: tabular-nums; }
#health tr.samples td { font-size: 12px; color: #444; border-bottom: 1px solid #ddd; }
#health tr.samples a { margin-right: 10px; color: #1a56c4; }
#calls tr.highlight { background: #fff4c2; }
`;

const SCRIPT = `
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value; else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
};
const kind = (status) => (status >= 200 && status < 300 ? 'ok' : status >= 500 || status === 0 ? 'failed' : 'refused');
const errorMessage = (text) => { try { return JSON.parse(text).error.message; } catch { return undefined; } };
const pretty = (text) => { try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; } };

const field = (name, schema, required) => {
  const hint = [required ? 'required' : 'optional', schema.description].filter(Boolean).join(': ');
  const label = el('label', { for: 'arg-' + name }, name + ' ', el('small', { text: hint }));
  let input;
  if (Array.isArray(schema.enum)) {
    input = el('select', {}, el('option', { value: '', text: '(leave out)' }));
    for (const value of schema.enum) input.append(el('option', { value: JSON.stringify(value), text: String(value) }));
  } else if (schema.type === 'boolean') {
    input = el('select', {}, el('option', { value: '', text: '(leave out)' }),
      el('option', { value: 'true', text: 'true' }), el('option', { value: 'false', text: 'false' }));
  } else if (schema.type === 'array' || schema.type === 'object' || !schema.type) {
    input = el('textarea', { rows: '3', placeholder: 'JSON' });
  } else {
    input = el('input', { type: schema.type === 'string' ? 'text' : 'number', step: 'any' });
    if (schema.default !== undefined) input.placeholder = 'default ' + JSON.stringify(schema.default);
    else if (schema.format) input.placeholder = schema.format;
  }
  input.id = 'arg-' + name;
  input.dataset.arg = name;
  input.dataset.type = Array.isArray(schema.enum) ? 'json' : schema.type || 'json';
  return [label, input];
};

// With several accounts (platform.accounts.json), the one whose agent the forms call as.
let accounts = [];
const chosenAccount = () => document.querySelector('#account')?.value;
// null: a call the Worker refused before it knew an account (an unknown account's url).
const accountBadge = (name) => (name === null ? el('span', { class: 'account', text: 'refused: unknown account' }) : name && accounts.length > 1 ? el('span', { class: 'account', text: name }) : undefined);

const argumentsOf = (form) => {
  const args = {};
  for (const input of form.querySelectorAll('[data-arg]')) {
    const raw = input.value.trim();
    if (raw === '') continue;
    const type = input.dataset.type;
    if (type === 'string') args[input.dataset.arg] = raw;
    else if (type === 'number' || type === 'integer') args[input.dataset.arg] = Number(raw);
    else { try { args[input.dataset.arg] = JSON.parse(raw); } catch { args[input.dataset.arg] = raw; } }
  }
  return args;
};

const render = (fn) => {
  const section = el('section', { class: 'fn', id: 'fn-' + fn.name, 'data-name': fn.name }, el('h2', { text: fn.name }));
  if (fn.registered) {
    const params = el('table');
    for (const [name, type] of Object.entries(fn.registered.parameters)) params.append(el('tr', {}, el('td', { text: name }), el('td', { text: type })));
    section.append(
      el('h3', { text: 'description (what the model reads)' }), el('pre', { class: 'description', text: fn.registered.description }),
      el('h3', { text: 'parameters' }), params,
      el('h3', { text: 'url' }), el('code', { class: 'url', text: fn.registered.url }),
    );
  } else {
    section.append(el('p', { class: 'unregistered', text: 'Not registered on the local platform yet: see the dev output.' }));
  }
  if (accounts.length > 1 && Array.isArray(fn.registeredOn)) {
    section.append(el('h3', { text: 'registered on' }), el('p', { class: 'registered-on', text: fn.registeredOn.join(', ') || 'no account yet' }));
  }
  if (fn.findings && fn.findings.length) {
    section.append(el('h3', { text: 'description lint (npm run lint:functions)' }));
    for (const f of fn.findings) section.append(el('p', { class: 'finding ' + f.severity, text: f.severity + ' [' + f.rule + '] ' + (f.parameter ? f.parameter + ': ' : '') + f.message + ' Fix: ' + f.fix }));
  }
  const form = el('form', { novalidate: '' }, el('h3', { text: 'call it' }));
  const schema = fn.jsonSchema || {};
  for (const [name, property] of Object.entries(schema.properties || {})) form.append(...field(name, property, (schema.required || []).includes(name)));
  const result = el('div', { class: 'result' });
  form.append(el('button', { type: 'submit', text: 'Call ' + fn.name }), result);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    result.textContent = 'calling...';
    delete result.dataset.status;
    const account = chosenAccount();
    const response = await fetch('/api/call/' + fn.name, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: argumentsOf(form), ...(account ? { account } : {}) }) });
    const call = await response.json();
    result.textContent = '';
    if (!response.ok) { result.append(el('p', { class: 'message', text: call.error || String(response.status) })); return; }
    if (call.account && accounts.length > 1) result.append(el('p', {}, 'as the agent of ', accountBadge(call.account)));
    result.dataset.status = String(call.status);
    result.append(el('p', {}, el('span', { class: 'status ' + kind(call.status), text: String(call.status || 'no answer') }), ' in ' + call.durationMs + ' ms'));
    const message = errorMessage(call.body);
    if (message) result.append(el('p', { class: 'message', text: message }));
    result.append(el('pre', { class: 'body', text: pretty(call.body) }));
    if (pending(call.body)) result.append(el('p', { class: 'deferred', text: 'The work goes on: the customer gets its result as a message, which appears under this call in Activity.' }));
    await refreshLog();
    await refreshHealth().catch(() => {});
  });
  section.append(form);
  return section;
};

// The interim answer of a deferred function (src/conversations/later.ts).
const pending = (text) => { try { const body = JSON.parse(text); return body.status === 'pending' && typeof body.followUp === 'string'; } catch { return false; } };

// What became of a deferred call's work and follow-up, from the Worker's log lines.
const DEFERRED_WORDS = {
  call_as_task: 'answered as an MCP task: the client reads the result with tasks/get; nobody is messaged',
  call_deferred_repeat: 'a repeat of a call this conversation already deferred: the interim again, and no second follow-up (the first call sends the one message)',
  task_failed: "the task's work failed after its retries: tasks/get says failed (see npm run dev's output)",
  deferred_refused: 'the work ended in a refusal: the customer gets the failure message',
  deferred_failed: "the work failed after its retries: the customer gets the failure message (see npm run dev's output)",
  deferred_gone: 'the function is no longer served: no follow-up',
  approval_asked: 'a colleague is asked to approve it (see Waiting for approval): the customer gets the outcome as a message',
  approval_settled: 'the approval request is decided (or expired)',
  follow_up_opted_out: 'no follow-up: the customer opted out of messages',
  follow_up_cancelled: 'no follow-up: the work finished in time after all',
  follow_up_not_repeated: 'follow-up not sent again: an earlier attempt may have sent it',
  follow_up_refused: 'the platform refused the follow-up: it is tried again',
  follow_up_ambiguous: 'the platform may or may not have the follow-up: it is not sent again',
  follow_up_failed: "the follow-up could not be sent (see npm run dev's output)",
};
const FINAL = ['follow_up_sent', 'follow_up_opted_out', 'follow_up_cancelled', 'follow_up_not_repeated', 'follow_up_ambiguous', 'follow_up_failed', 'deferred_gone'];

const when = (ms) => new Date(ms).toISOString().slice(11, 19);

// A message beside its cause: to or from which contact, on which channel, and when, if later.
// A call's message sent after it was answered is its follow-up.
const sentLine = (message, ofCall) => el('div', { class: 'sent ' + message.direction, 'data-message': message.id },
  el('span', { class: 'kind', text: message.direction === 'inbound' ? 'customer wrote ' : ofCall && message.afterMs ? 'follow-up sent ' : 'message sent ' }),
  (message.direction === 'inbound' ? 'from ' : 'to ') + (message.contactName ? message.contactName + ' (' + message.contactId + ')' : message.contactId) + ' via ' + message.channel
    + (message.afterMs ? ' (' + (message.afterMs / 1000).toFixed(1) + ' s later)' : '') + ': ',
  el('strong', { text: message.text }));

const row = (item) => {
  if (item.kind === 'call') {
    const detail = el('td', {}, item.source === 'worker'
      ? el('p', { class: 'source', text: 'Called straight at the Worker (curl, an MCP client): the console saw its status, not its answer (request ' + item.requestId + ').' })
      : el('pre', { text: item.body }));
    const steps = (item.deferred || []).map((step) => step.event);
    if (item.repeated) detail.prepend(el('div', { class: 'repeated', text: 'repeat: this answer is the stored one of the same call earlier in this conversation; the handler did not run (a write: docs/functions.md, Calls that repeat)' }));
    if (steps.includes('call_deferred')) detail.append(el('div', { class: 'deferred', text: 'deferred: the model got the interim answer; the work goes on and its result reaches the customer as a message' }));
    for (const message of item.messages) detail.append(sentLine(message, true));
    for (const step of steps) if (DEFERRED_WORDS[step]) detail.append(el('div', { class: 'deferred', text: DEFERRED_WORDS[step] }));
    if (steps.includes('call_deferred') && !steps.some((step) => FINAL.includes(step)) && !item.messages.some((message) => message.afterMs)) {
      detail.append(el('div', { class: 'deferred waiting', text: 'waiting for the follow-up (' + Math.max(0, Math.round((Date.now() - item.endedAt) / 1000)) + ' s so far)' }));
    }
    const source = { console: 'console', platform: 'platform (agent)', worker: 'direct' }[item.source];
    const args = item.arguments === undefined ? undefined : el('code', { class: 'args', text: JSON.stringify(item.arguments) });
    const byRequest = item.requestId ? { id: 'req-' + item.requestId, 'data-request-id': item.requestId } : {};
    const marked = item.requestId && item.requestId === highlighted ? { class: 'highlight' } : {};
    return el('tr', { 'data-kind': 'call', 'data-source': item.source, 'data-status': String(item.status), 'data-account': item.account || '', ...byRequest, ...marked },
      el('td', { text: when(item.startedAt) }),
      el('td', {}, accountBadge(item.account), el('span', { text: item.name }), el('br'), el('span', { class: 'source', text: source + (item.repeated ? ' · repeat' : '') }), args,
        item.conversationId ? el('span', { class: 'source conversation', text: 'conversation ' + item.conversationId }) : null),
      el('td', { class: 'status ' + kind(item.status), text: String(item.status || 'none') }),
      el('td', { text: item.durationMs + ' ms' }), detail);
  }
  if (item.kind === 'delivery') {
    const detail = el('td', {});
    if (item.trigger) detail.append(sentLine(item.trigger));
    if (item.deliveries.length === 0) detail.append(el('div', { class: 'hook', text: 'No webhook is subscribed to ' + item.type + ': nothing was delivered.' }));
    for (const hook of item.deliveries) {
      const line = hook.skipped ? 'not delivered: ' + hook.skipped
        : 'POST ' + hook.url + ' answered ' + (hook.status ?? 'nothing') + ' after ' + hook.attempts + ' attempt(s)' + (hook.delivered ? '' : ': not delivered');
      detail.append(el('div', { class: 'hook', text: line }));
      if (hook.body) detail.append(el('pre', { text: hook.body }));
    }
    for (const handled of item.handling || []) {
      detail.append(el('div', { class: 'hook handling', text: 'the handler: ' + handled.event.replace('event_', '').replace('_', ' ') }));
    }
    for (const message of item.messages) detail.append(sentLine(message));
    const statuses = item.deliveries.map((hook) => hook.status ?? 0);
    const worst = statuses.length ? Math.max(...statuses.map((status) => (status >= 200 && status < 300 ? 0 : status || 599))) : 0;
    return el('tr', { 'data-kind': 'delivery', 'data-type': item.type, 'data-account': item.account || '' },
      el('td', { text: when(item.startedAt) }),
      el('td', {}, accountBadge(item.account), el('span', { text: item.type }), el('br'), el('span', { class: 'source', text: 'event' }), item.contactId ? ' · ' + item.contactId : ''),
      el('td', { class: 'status ' + (worst ? kind(worst) : 'ok'), text: statuses.join(', ') || 'none' }),
      el('td', { text: (item.endedAt - item.startedAt) + ' ms' }), detail);
  }
  return el('tr', { 'data-kind': 'message', 'data-account': item.account || '' },
    el('td', { text: when(item.startedAt) }), el('td', {}, accountBadge(item.account), el('span', { class: 'source', text: 'message' })), el('td'), el('td'),
    el('td', {}, sentLine(item.message)));
};

const refreshLog = async () => {
  const { items, problem } = await (await fetch('/api/activity')).json();
  const rows = document.querySelector('#calls');
  rows.textContent = '';
  for (const item of items) rows.append(row(item));
  const note = document.querySelector('#log-problem');
  note.textContent = problem ? 'The platform side is missing: ' + problem + '.' : '';
};

// Health per account and function: the figures of npm run stats, from the records dev keeps; the
// failing and slowest calls link to their entries in Activity (by request id).
let highlighted;
const showCall = (requestId) => (event) => {
  event.preventDefault();
  highlighted = requestId;
  const target = document.getElementById('req-' + requestId);
  const note = document.querySelector('#health-note');
  note.textContent = target ? '' : 'Call ' + requestId + ' is no longer in Activity, which keeps the latest calls only.';
  for (const old of document.querySelectorAll('#calls tr.highlight')) old.classList.remove('highlight');
  if (target) { target.classList.add('highlight'); target.scrollIntoView({ block: 'center' }); }
};
const callLink = (sample, text) => {
  const link = el('a', { href: '#req-' + sample.requestId, 'data-request': sample.requestId, text });
  link.addEventListener('click', showCall(sample.requestId));
  return link;
};
const topCodes = (codes) => Object.entries(codes).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([code, n]) => code + ' ' + n).join(', ');
const ms = (value) => (value === null ? '-' : value + ' ms');
const extras = (row) => [
  row.timeouts && row.timeouts + ' timeouts', row.repeats && row.repeats + ' repeats',
  row.deferred && row.deferred + ' deferred' + (row.deferredFailed ? ' (' + row.deferredFailed + ' failed)' : ''),
  (row.followUpsSent || row.followUpsFailed) && 'follow-ups ' + row.followUpsSent + ' sent, ' + row.followUpsFailed + ' failed',
  row.approvalsAsked && 'approvals ' + row.approvalsAsked + ' asked: ' + row.approved + ' approved, ' + row.denied + ' denied, ' + row.expired + ' expired',
].filter(Boolean).join('; ');
const healthRows = (row) => {
  const num = (value, style) => el('td', { class: 'num' + (style ? ' ' + style : ''), text: String(value) });
  const line = el('tr', { class: 'health', 'data-account': row.account || '', 'data-function': row.function || '' },
    el('td', { text: row.account || '(none)' }), el('td', { text: row.function || '(none)' }),
    num(row.calls), num(row.ok, row.ok ? 'ok' : ''), num(row.refused, row.refused ? 'refused' : ''), num(row.errors, row.errors ? 'failed' : ''),
    el('td', { class: 'codes', text: topCodes(row.codes) || '-' }),
    num(ms(row.p50Ms)), num(ms(row.p95Ms)), num(ms(row.p99Ms)), el('td', { class: 'source', text: extras(row) }));
  const { failing = [], slowest = [] } = row.samples || {};
  if (!failing.length && !slowest.length) return [line];
  const cell = el('td', { colspan: '11' });
  if (failing.length) cell.append('failing: ', ...failing.map((s) => callLink(s, when(s.at) + ' ' + s.status + (s.code ? ' ' + s.code : ''))));
  if (slowest.length) cell.append('slowest: ', ...slowest.map((s) => callLink(s, s.durationMs + ' ms')));
  return [line, el('tr', { class: 'samples' }, cell)];
};
const refreshHealth = async () => {
  const since = document.querySelector('#health-since').value;
  const answer = await (await fetch('/api/stats?samples=3&since=' + encodeURIComponent(since))).json();
  const rows = document.querySelector('#health-rows');
  rows.textContent = '';
  if (!Array.isArray(answer.rows)) return;
  if (answer.rows.length === 0) rows.append(el('tr', {}, el('td', { colspan: '11', id: 'health-empty', text: 'No calls in this window.' })));
  for (const row of answer.rows) rows.append(...healthRows(row));
};

// The account picker: shown when the local platform plays several accounts.
const loadAccounts = async () => {
  accounts = (await (await fetch('/api/accounts')).json()).accounts || [];
  const holder = document.querySelector('#accounts');
  holder.textContent = '';
  if (accounts.length < 2) return;
  const select = el('select', { id: 'account' });
  for (const account of accounts) select.append(el('option', { value: account.name, text: account.name + (account.first ? ' (first)' : '') }));
  holder.append(el('label', { for: 'account' }, 'Call as the agent of account', select));
};

// The conversation the console's calls belong to, and a way to start a new one.
const showConversation = ({ conversation }) => {
  const text = document.querySelector('#conversation-id');
  text.textContent = conversation
    ? 'Calls from this page come from conversation ' + conversation.conversationId + ' (contact ' + conversation.contactId + ', ' + conversation.channel + '): a write called again with the same arguments in it gets its first answer without running.'
    : 'Calls from this page carry no conversation.';
};
const conversationBar = async () => {
  showConversation(await (await fetch('/api/conversation')).json());
  document.querySelector('#new-conversation').addEventListener('click', async () => {
    showConversation(await (await fetch('/api/conversation', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json());
  });
};

// Approvals waiting for a person (docs/functions.md "Approval"): approve or deny each as the team would.
const refreshApprovals = async () => {
  const { approvals = [] } = await (await fetch('/api/approvals')).json();
  const box = document.querySelector('#approvals');
  box.textContent = '';
  if (approvals.length === 0) return;
  box.append(el('h2', { text: 'Waiting for approval' }));
  for (const approval of approvals) {
    const decide = (decision) => async () => {
      await fetch('/api/approvals', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: approval.code, decision, ...(approval.account ? { account: approval.account } : {}) }) });
      await refreshApprovals();
      await refreshLog();
    };
    const approve = el('button', { type: 'button', text: 'Approve' });
    approve.addEventListener('click', decide('approve'));
    const deny = el('button', { type: 'button', text: 'Deny' });
    deny.addEventListener('click', decide('deny'));
    box.append(el('div', { class: 'approval', 'data-code': approval.code, 'data-account': approval.account || '' },
      accountBadge(approval.account), el('strong', { text: approval.ask }), ' ',
      el('span', { class: 'source', text: approval.name + ' · code ' + approval.code + ' · expires ' + when(approval.expiresAt) }), ' ',
      approve, ' ', deny));
  }
};

const load = async () => {
  void conversationBar().catch(() => {});
  await loadAccounts();
  const { functions, problem } = await (await fetch('/api/functions')).json();
  const list = document.querySelector('#functions');
  list.textContent = '';
  if (problem) list.append(el('p', { class: 'problem', id: 'problem', text: problem }));
  if (functions.length === 0) {
    list.append(el('p', { id: 'empty', text: problem
      ? 'No function can be shown until this is fixed: the Worker describes its functions all together, and one definition is broken.'
      : 'No functions: add a file to functions/ (npm run new -- <name>).' }));
  }
  if (functions.length > 1) {
    const toc = el('nav', { id: 'toc' });
    for (const fn of functions) toc.append(el('a', { href: '#fn-' + fn.name, class: fn.registered ? '' : 'unregistered', text: fn.name }));
    list.append(toc);
  }
  for (const fn of functions) list.append(render(fn));
  document.body.dataset.ready = 'true';
  await refreshLog();
  // What happens elsewhere (npm run platform -- inbound, a handler's message) appears without a reload.
  await refreshApprovals().catch(() => {});
  setInterval(() => void refreshLog().catch(() => {}), 2000);
  setInterval(() => void refreshApprovals().catch(() => {}), 2000);
  document.querySelector('#health-since').addEventListener('change', () => void refreshHealth().catch(() => {}));
  await refreshHealth().catch(() => {});
  setInterval(() => void refreshHealth().catch(() => {}), 2000);
};
load();
`;

/** The whole page. */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agent-functions console</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>agent-functions console</h1><p>Each function exactly as the local platform holds it, a form that calls it through the Worker, and what the model got back; beside it, what the local platform did: calls, event deliveries and the messages they sent.</p><div id="accounts"></div></header>
<div id="conversation"><span id="conversation-id"></span><button type="button" id="new-conversation">New conversation</button></div>
<section id="health"><h2>Health</h2><select id="health-since" aria-label="window"><option value="1h">last hour</option><option value="24h">last 24 hours</option><option value="7d">last 7 days</option></select> <span class="source">per account and function, the figures of npm run stats</span><p id="health-note" class="source"></p><table><thead><tr><th>account</th><th>function</th><th class="num">calls</th><th class="num">ok</th><th class="num">refused</th><th class="num">errors</th><th>top codes</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th><th>also</th></tr></thead><tbody id="health-rows"></tbody></table></section>
<main>
<div id="functions"><p>Loading...</p></div>
<div id="log"><div id="approvals"></div><h2>Activity</h2><p id="log-problem" class="source"></p><table><thead><tr><th>time</th><th>what</th><th>status</th><th>took</th><th>what the model got, what was delivered, messages sent</th></tr></thead><tbody id="calls"></tbody></table></div>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
