// The commands a README section tells a reader to run, in order: each line of its ```sh blocks
// (continuations joined; a following `# {...}` line is the output it promises) and, in numbered
// steps, each inline `npm ...` or `npx ...`.

export interface ReadmeCommand {
  /** The command as written. */
  command: string;
  /** The exact output the README shows for it, when it shows one. */
  expect?: string;
}

/** The text of the section whose heading is `heading` (up to the next heading of that level). */
export const sectionOf = (readme: string, heading: string): string => {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`The README has no section "${heading}".`);
  const level = heading.split(' ')[0] as string;
  const end = readme.indexOf(`\n${level} `, start + heading.length + 2);
  return readme.slice(start, end === -1 ? undefined : end);
};

const INLINE = /`((?:npm|npx) [^`]+)`/g;

/**
 * The commands of one section, in reading order.
 * @example commandsOf(sectionOf(readme, '## Quick start'), { inline: false })
 */
export const commandsOf = (section: string, options: { inline: boolean }): ReadmeCommand[] => {
  const commands: ReadmeCommand[] = [];
  const parts = section.split(/^ *```.*$/m);
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      let pending = '';
      for (const raw of part.split('\n')) {
        const line = raw.trim();
        if (!line) continue;
        if (line.startsWith('# ') && !pending) {
          const last = commands.at(-1);
          if (last && line.slice(2).startsWith('{')) last.expect = line.slice(2);
          continue;
        }
        pending += line.endsWith('\\') ? `${line.slice(0, -1).trim()} ` : line;
        if (line.endsWith('\\')) continue;
        // A trailing comment after two spaces explains the command; it is not part of it.
        commands.push({ command: pending.replace(/ {2,}# .*$/, '').trim() });
        pending = '';
      }
    } else if (options.inline) {
      for (const match of part.matchAll(INLINE)) commands.push({ command: (match[1] as string).trim() });
    }
  });
  return commands;
};
