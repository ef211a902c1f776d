// What dev shows of wrangler dev's own output: its bindings table once (again only when it
// changed), and its "Re-run `wrangler types`" advice in the project's words (the command that
// regenerates worker-configuration.d.ts here is npm run generate). Everything else passes as it comes.
import { stripVTControlCharacters } from 'node:util';

const TABLE_HEADER = 'Your Worker has access to the following bindings:';
const TYPES_ADVICE = /Your types might be out of date\. Re-run `wrangler types`/;

export interface WranglerOutput {
  /** The part of `text` (a chunk of wrangler's output) to print now. */
  feed(text: string): string;
}

/**
 * A filter over one stream of wrangler dev's output; `typesCommand` is what the project runs
 * instead of `wrangler types` (undefined: wrangler's advice is left as it is).
 * @example const out = wranglerOutput('npm run generate'); process.stdout.write(out.feed(chunk));
 */
export const wranglerOutput = (typesCommand: string | undefined): WranglerOutput => {
  let table: string[] | undefined;
  let shownTable = '';
  let partial = '';
  const line = (text: string): string => {
    const plain = stripVTControlCharacters(text).trim();
    if (table) {
      table.push(text);
      if (plain !== '') return '';
      const whole = table.join('\n');
      table = undefined;
      if (stripVTControlCharacters(whole) === shownTable) return '';
      shownTable = stripVTControlCharacters(whole);
      return `${whole}\n`;
    }
    if (plain.startsWith(TABLE_HEADER)) {
      table = [text];
      return '';
    }
    if (typesCommand && TYPES_ADVICE.test(plain)) {
      return `Your types might be out of date: run ${typesCommand} (it runs wrangler types as this project needs).\n`;
    }
    return `${text}\n`;
  };
  return {
    feed: (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      let shown = lines.map(line).join('');
      // A line still coming is shown at once (a prompt, a progress line), unless a table is being read.
      const plainPartial = stripVTControlCharacters(partial).trim();
      if (
        !table &&
        partial !== '' &&
        !TABLE_HEADER.startsWith(plainPartial) &&
        !plainPartial.startsWith(TABLE_HEADER)
      ) {
        shown += partial;
        partial = '';
      }
      return shown;
    },
  };
};
