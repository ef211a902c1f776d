// `wrangler tail --format json` prints each event as indented JSON over many lines; this finds where
// one value ends and the next begins, whatever the chunks the pipe delivers.

/**
 * A splitter fed chunk by chunk; `push` returns every complete top-level JSON value text so far.
 * Text outside a value (a banner line of wrangler's) is dropped.
 * @example const split = jsonSplitter(); split.push('{"a":1}{"b"'); split.push(':2}') // ['{"b":2}']
 */
export const jsonSplitter = () => {
  let buffer = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  let scanned = 0;
  return {
    push(chunk: string): string[] {
      buffer += chunk;
      const values: string[] = [];
      for (let i = scanned; i < buffer.length; i++) {
        const c = buffer[i];
        if (depth === 0) {
          if (c === '{') {
            start = i;
            depth = 1;
          }
          continue;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') {
          depth--;
          if (depth === 0) values.push(buffer.slice(start, i + 1));
        }
      }
      // Keep only the unfinished value, so the buffer never grows past one event.
      if (depth === 0) buffer = '';
      else {
        buffer = buffer.slice(start);
        start = 0;
      }
      scanned = buffer.length;
      return values;
    },
  };
};
