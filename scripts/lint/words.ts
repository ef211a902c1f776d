// Words of a description, as the rules and the golden-prompt check compare them: lower case,
// stop words out, a light stem so "books", "booked" and "booking" meet.

const STOP = new Set(
  `a an the and or but if of to in on at by for with from as is are was were be been it its this that these those
  their they them he she his her you your we our us i me my can could would should will shall may might must do does
  did not no so than then there here what which who whom when where why how all any each both some such one only
  own same too very just also into about over under again out up down off once per via e g eg ie etc it's don't i'm
  i'd i've i'll let please want like get got have has had am s t`.split(/\s+/),
);

/** A crude stem: plural, past and -ing endings off, so word forms meet. */
export const stem = (word: string): string => {
  let w = word;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('es') && /(ch|sh|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
};

/** Every word, lower case, in order (digits kept, `snake_case` split). */
export const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The content words of `text`, stemmed, as a set. */
export const terms = (text: string): Set<string> =>
  new Set(
    words(text)
      .filter((w) => !STOP.has(w) && !/^\d+$/.test(w))
      .map(stem),
  );

/** The sentences of a text (split after . ! ? followed by a space). */
export const sentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+(?=[A-Z"'(])/)
    .map((s) => s.trim())
    .filter(Boolean);

const PARAMETERS_MARK = /\n\nParameters:(?: none\.|\n)/;

/** The author's part of a registered description: everything before the generated parameter list. */
export const authorText = (description: string): string => {
  const at = description.search(PARAMETERS_MARK);
  return (at === -1 ? description : description.slice(0, at)).trim();
};

/** The generated line of one parameter in a registered description, if there is one. */
export const parameterLineOf = (description: string, name: string): string | undefined =>
  description.split('\n').find((line) => line.startsWith(`- ${name} (`));

/** Jaccard similarity of two sets (0 when both are empty). */
export const jaccard = (a: Set<string>, b: Set<string>): number => {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
};

/** Letters and digits only, lower case: how argument values are compared with what was said. */
export const squash = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '');
