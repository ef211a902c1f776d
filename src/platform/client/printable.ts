// Text the platform sent, made safe to print: a terminal or a CI log must not receive control
// characters (an escape sequence or a line break can forge a line that looks like our own output).

// C0 (tab and newline included), DEL, C1, and the Unicode line/paragraph separators and bidi controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Whether `text` holds a control character (a terminal escape, a line break, a bidi override).
 * @example hasControl('Claude\u202etxt.exe') // true
 */
export const hasControl = (text: string): boolean => text.search(CONTROL) !== -1;

/**
 * The text with every control character replaced by U+FFFD, so nothing printed can move the cursor,
 * start a new line or recolour the output; longer than `max` characters, it is cut with an ellipsis.
 * @example printable('ok\u001b[2K\rforged') // 'ok\uFFFD[2K\uFFFDforged'
 */
export const printable = (text: string, max = 500): string => {
  const clean = text.replace(CONTROL, '\uFFFD');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
};
