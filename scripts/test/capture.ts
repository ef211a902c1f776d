// Running a command's `main` in this process, with streams that keep what is written and are no
// terminal (so the output has no colours), as a user's pipe would.
import { Writable } from 'node:stream';

/** A stream that keeps what is written, and is no terminal. */
export const capture = (): { stream: NodeJS.WriteStream; text: () => string } => {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
};

/**
 * `main(args, stdout, stderr)` of a command, run here: its result and what it printed on each stream.
 * @example const { status, stdout } = await runMain(main, ['--help'])
 */
export const runMain = <T>(
  main: (args: string[], out: typeof process.stdout, err: typeof process.stderr) => T,
  args: string[],
): { status: T; stdout: string; stderr: string } => {
  const out = capture();
  const err = capture();
  const status = main(args, out.stream as typeof process.stdout, err.stream as typeof process.stderr);
  return { status, stdout: out.text(), stderr: err.text() };
};
