// Purpose, when to call (and when not), behaviour and side effects: the author's own text.
import { PLACEHOLDER_DESCRIPTION } from 'agent-functions/worker';
import { CHANGE, DESTROY, READ, REPEAT, VAGUE, WHEN, WHEN_NOT } from './patterns.ts';
import { clip, findingsFor } from './ruleList.ts';
import type { Finding, LintFunction } from './types.ts';
import { sentences, terms, words } from './words.ts';

/** Whether a call changes something: effect first, then the annotations; undefined when neither says. */
export const writes = (fn: LintFunction): boolean | undefined => {
  if (fn.effect === 'write' || fn.effect === 'read') return fn.effect === 'write';
  return fn.annotations?.readOnlyHint === undefined ? undefined : !fn.annotations.readOnlyHint;
};

/** The purpose rules; `placeholder` alone when the scaffold's text is still there. */
export const purposeRules = (fn: LintFunction, own: string): Finding[] => {
  const hit = findingsFor(fn.name);
  if (own.includes(PLACEHOLDER_DESCRIPTION.slice(0, 40))) {
    return [
      hit('placeholder', clip(own), "Still the scaffold's placeholder.", 'Say what it does and when to call it.'),
    ];
  }
  const out: Finding[] = [];
  const first = sentences(own)[0] ?? own;
  const nameTerms = terms(fn.name.replace(/_/g, ' '));
  const firstTerms = terms(first);
  if ([...firstTerms].filter((t) => !nameTerms.has(t)).length < 2) {
    const fix = 'Say what it does and returns, for which case: "Looks up an order by its number; says where it is."';
    out.push(hit('purpose-restates-name', first, `The first sentence says little more than "${fn.name}".`, fix));
  }
  if (![...nameTerms].some((t) => firstTerms.has(t))) {
    const fix = 'Open with what the name says ("list_slots: Lists the free slots…"), or rename it.';
    out.push(hit('purpose-off-name', first, `The first sentence shares no word with the name "${fn.name}".`, fix));
  }
  if (VAGUE.test(first)) {
    const fix = 'Open with the action: "Books…", "Looks up…", "Cancels…".';
    out.push(hit('purpose-vague', first, 'The first word says nothing about what it does.', fix));
  }
  return out;
};

export const whenRules = (fn: LintFunction, own: string): Finding[] => {
  const hit = findingsFor(fn.name);
  const all = sentences(own);
  const out: Finding[] = [];
  if (!all.some((s) => WHEN.test(s))) {
    const fix = 'Add "Call it when the customer …", the situation in the customer\'s words.';
    out.push(hit('when-missing', clip(own), 'No sentence says when the agent should call it.', fix));
  }
  if (!all.some((s) => WHEN_NOT.test(s))) {
    const fix = 'Add "Not for …: use other_function." or "Do not call it when …".';
    out.push(hit('when-not-missing', clip(own), 'Nothing says when not to call it, or what to use instead.', fix));
  }
  return out;
};

export const behaviourRules = (fn: LintFunction, own: string): Finding[] => {
  const hit = findingsFor(fn.name);
  const out: Finding[] = [];
  const a = fn.annotations;
  const isWrite = writes(fn);
  // Other functions' names (use pass_to_team) are not verbs of this one.
  const text = own.replace(/\b[a-z][a-z0-9]*_[a-z0-9_]+/g, '');
  const first = sentences(own)[0] ?? own;
  if (isWrite === undefined) {
    const fix = 'Set annotations: { readOnlyHint: true } for a look-up, or readOnlyHint: false and the other hints.';
    out.push(
      hit('annotations-missing', fn.name, 'Neither effect nor annotations say whether it changes anything.', fix),
    );
  }
  const declared = `effect: "${fn.effect}", readOnlyHint: ${a?.readOnlyHint}`;
  if ((fn.effect === 'read' && a?.readOnlyHint === false) || (fn.effect === 'write' && a?.readOnlyHint === true)) {
    out.push(hit('effect-conflict', declared, 'effect and readOnlyHint disagree.', 'Make them agree.'));
  }
  // "Renews…", "Enrols…": an opening verb that is not a look-up says what changes, listed or not.
  const opener = words(first)[0] ?? '';
  const opensWithChange = /^[a-z]{3,}s$/.test(opener) && !READ.test(opener) && !VAGUE.test(opener);
  if (isWrite === true && !CHANGE.test(text) && !opensWithChange) {
    const fix = 'Say what a call changes ("Books…", "Sends…", "Saves…") and what the customer will notice.';
    out.push(hit('write-unstated', clip(own), 'It writes, but the description names no change.', fix));
  }
  if (isWrite === false && CHANGE.test(first) && !READ.test(first)) {
    const fix = 'Say what it reads, or declare it a write (readOnlyHint: false).';
    out.push(
      hit('effect-conflict', first, 'Declared read-only, but the first sentence says it changes something.', fix),
    );
  }
  if (isWrite && a?.destructiveHint === true && !DESTROY.test(first)) {
    const fix = 'Say what is lost or replaced ("Cancels…", "Replaces…").';
    out.push(hit('effect-conflict', first, 'destructiveHint is true; the first sentence does not say what goes.', fix));
  }
  if (isWrite && a?.destructiveHint === false && DESTROY.test(words(first)[0] ?? '')) {
    const fix = 'Set destructiveHint: true, or reword.';
    out.push(
      hit('effect-conflict', first, 'It opens with cancelling or replacing, but destructiveHint is false.', fix),
    );
  }
  if (isWrite && a?.idempotentHint !== true && !REPEAT.test(own)) {
    const fix = 'Say what calling it twice does ("call it once per conversation"), or make it idempotent.';
    out.push(
      hit('repeat-unstated', clip(own), 'A second call may act again, and the description does not say so.', fix),
    );
  }
  return out;
};
