// What every command reads and writes, for its tests to stand in for: its output streams, the
// environment and the project's root. Each command's own I/O type extends it with what only that
// command needs (a fetch, wrangler, standard input), so a new command starts from here.

/** The I/O every command shares. */
export interface CommandIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  /** The environment (process.env, or what a test gives). */
  env: Record<string, string | undefined>;
  /** The project's root: where wrangler.toml and functions/ are (default: the one the command runs in). */
  root?: string;
}
