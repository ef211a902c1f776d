// Colours for a stream, only when it is a terminal that wants them (NO_COLOR, FORCE_COLOR honoured).
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/** Styling functions bound to `stream`; each is the identity when colours are off. */
export const paintFor = (stream: NodeJS.WritableStream) => {
  const paint = (style: Style) => (text: string) => styleText(style, text, { stream, validateStream: true });
  return {
    green: paint('green'),
    red: paint('red'),
    yellow: paint('yellow'),
    cyan: paint('cyan'),
    dim: paint('dim'),
    bold: paint('bold'),
  };
};

export type Paint = ReturnType<typeof paintFor>;

/** No colours at all (for JSON, files and tests). */
export const plain: Paint = {
  green: (t) => t,
  red: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
  dim: (t) => t,
  bold: (t) => t,
};
