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
.message { background: #fff4e5; border-left: 3px solid #b06000; padding: 6px 8px; margin: 6px 0; }
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
  const section = el('section', { class: 'fn', 'data-name': fn.name }, el('h2', { text: fn.name }));
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
  const form = el('form', { novalidate: '' }, el('h3', { text: 'call it' }));
  const schema = fn.jsonSchema || {};
  for (const [name, property] of Object.entries(schema.properties || {})) form.append(...field(name, property, (schema.required || []).includes(name)));
  const result = el('div', { class: 'result' });
  form.append(el('button', { type: 'submit', text: 'Call ' + fn.name }), result);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    result.textContent = 'calling...';
    const response = await fetch('/api/call/' + fn.name, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: argumentsOf(form) }) });
    const call = await response.json();
    result.textContent = '';
    result.dataset.status = String(call.status);
    result.append(el('p', {}, el('span', { class: 'status ' + kind(call.status), text: String(call.status || 'no answer') }), ' in ' + call.durationMs + ' ms'));
    const message = errorMessage(call.body);
    if (message) result.append(el('p', { class: 'message', text: message }));
    result.append(el('pre', { class: 'body', text: pretty(call.body) }));
    await refreshLog();
  });
  section.append(form);
  return section;
};

const refreshLog = async () => {
  const { calls } = await (await fetch('/api/calls')).json();
  const rows = document.querySelector('#calls');
  rows.textContent = '';
  for (const call of calls) {
    rows.append(el('tr', { 'data-status': String(call.status) },
      el('td', { text: call.at.slice(11, 19) }), el('td', { text: call.name }),
      el('td', { class: 'status ' + kind(call.status), text: String(call.status || 'none') }),
      el('td', { text: call.durationMs + ' ms' }), el('td', {}, el('pre', { text: call.body }))));
  }
};

const load = async () => {
  const { functions } = await (await fetch('/api/functions')).json();
  const list = document.querySelector('#functions');
  list.textContent = '';
  if (functions.length === 0) list.append(el('p', { text: 'No functions: add a file to functions/ (npm run new -- <name>).' }));
  for (const fn of functions) list.append(render(fn));
  document.body.dataset.ready = 'true';
  await refreshLog();
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
<header><h1>agent-functions console</h1><p>Each function exactly as the local platform holds it, a form that calls it through the Worker, and what the model got back.</p></header>
<main>
<div id="functions"><p>Loading...</p></div>
<div id="log"><h2>Recent calls</h2><table><thead><tr><th>time</th><th>function</th><th>status</th><th>took</th><th>what the model got</th></tr></thead><tbody id="calls"></tbody></table></div>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
