// Progress of a run over many accounts: one line rewritten in place on a terminal, a line per
// tenth in CI logs (only for long runs). Everything else the run prints goes through `print`, so
// the line is cleared first and drawn again after.

/** How far a run is. */
export interface RunProgress {
  /** An account started (`writes`: none yet) or finished. */
  started(): void;
  finished(failed: boolean): void;
  /** One write done, in any account. */
  wrote(): void;
  /** Writes `text` to `stream` without tearing the progress line. */
  print(stream: NodeJS.WritableStream, text: string): void;
  /** Clears the line for good. */
  end(): void;
}

type Stream = NodeJS.WriteStream | NodeJS.WritableStream;
const isTty = (stream: Stream) => 'isTTY' in stream && stream.isTTY === true;

/**
 * The progress of `total` accounts on `stream` (stderr); `quiet` prints none (--json).
 * @example const progress = createProgress(process.stderr, 500, false)
 */
export const createProgress = (stream: Stream, total: number, quiet: boolean): RunProgress => {
  const tty = !quiet && isTty(stream);
  let done = 0;
  let failed = 0;
  let running = 0;
  let writes = 0;
  let lastTenth = 0;
  let shown = false;
  let drawnAt = 0;
  const text = () =>
    `  accounts: ${done}/${total} done, ${running} in progress${failed ? `, ${failed} failed` : ''}; ${writes} writes`;
  // At most ten frames a second: 500 accounts' writes would otherwise flood the terminal.
  const draw = (force = false) => {
    if (!tty || (!force && Date.now() - drawnAt < 100)) return;
    drawnAt = Date.now();
    stream.write(`\r\x1b[2K${text()}`);
    shown = true;
  };
  const clear = () => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    started() {
      running++;
      draw();
    },
    finished(bad) {
      running--;
      done++;
      if (bad) failed++;
      if (tty) return draw(true);
      // Small runs show every account's result; only long ones need a heartbeat.
      const tenth = Math.floor((done * 10) / total);
      if (!quiet && total >= 20 && tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`${text()}\n`);
      }
    },
    wrote() {
      writes++;
      draw();
    },
    print(target, output) {
      clear();
      target.write(output);
      if (running > 0) draw(true);
    },
    end: clear,
  };
};
