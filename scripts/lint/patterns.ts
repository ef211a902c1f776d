// The words the rules look for, in one place (docs/descriptions.md quotes them).

/** A sentence that says when to call: "Call it when…", "Use this once…", "…when the customer asks…". */
export const WHEN: RegExp =
  /\b(call|use|run|ask for|trigger)\b[^.]*\b(when|whenever|once|after|before|if|as soon as)\b|\b(when|whenever|once|if) (the )?(customer|user|caller|person|they)\b/i;
/** A sentence that says when not to, or what to use instead. */
export const WHEN_NOT: RegExp =
  /\b(do not|don't|never|not for|not when|instead|only (when|if|once|after)|rather than|unless)\b|\buse [a-z][a-z0-9]*_[a-z0-9_]+/i;
/** A sentence about another case ("Not for…", "To move it instead, use x"): its words are the alternative's. */
export const OTHER_CASE: RegExp =
  /\b(do not|don't|not for|not when|instead|rather than)\b|\buse [a-z][a-z0-9]*_[a-z0-9_]+/i;
/** Verbs that say a call changes something. */
export const CHANGE: RegExp =
  /\b(book|cancel|creat|save|send|updat|delet|remov|adds?\b|mov|chang|replac|record|writ|submit|charg|pays?\b|refund|schedul|reschedul|register|hands?\b|transfer|notif|assign|subscrib|unsubscrib|reserv|confirm)\w*/i;
/** Verbs that say a call destroys or overwrites something. */
export const DESTROY: RegExp = /\b(cancel|delet|remov|replac|overwrit|mov|clear|revok|void|refund|reschedul|drop)\w*/i;
/** Verbs that say it only reads. */
export const READ: RegExp =
  /\b(looks?|lists?|checks?|gets?|finds?|search(es)?|quotes?|says?|shows?|reads?|tells?|returns?|fetch(es)?)\b/i;
/** A first word that says nothing about what the function does. */
export const VAGUE: RegExp =
  /^(handles?|manages?|process(es)?|does|deals? with|helper|utility|this (function|tool)|a (function|tool)|function|tool)\b/i;
/** What a description says of a function called twice. */
export const REPEAT: RegExp =
  /\b(again|twice|once|duplicate|second|same (booking|answer|result|one|contact)|repeat)\b/i;
/** A parameter whose values have a shape the model must get right. */
export const SHAPED: RegExp =
  /\b(phone|date|time|email|e-mail|url|link|reference|code|number|id|iban|postcode|zip|sku)\b/i;
/** An example written into a text: "like …", "e.g. …", "such as …", a quoted value. */
export const HAS_EXAMPLE: RegExp = /\b(like|e\.g\.|for example|such as)\b|"[^"]+"|\+\d|\d{3,}/i;
/** Choices listed in prose ("either monthly or yearly", "one of a, b or c"). */
export const PROSE_CHOICES: RegExp = /\b(either \w+ or \w+|one of\b|must be (one of|either))/i;
/** Names that say nothing of what the function acts on. */
export const VAGUE_NAMES: Set<string> = new Set(
  'do run handle process helper tool function action execute call main test'.split(' '),
);
/** A plain identifier for a parameter. */
export const PARAMETER_NAME: RegExp = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
