// Progress of long runs: a line rewritten in place on a terminal, a line per tenth in CI logs.

/** Reports `done` of `total` writes; `end()` clears the terminal line. */
export const createProgress = (stream: NodeJS.WriteStream | NodeJS.WritableStream, label: string) => {
  const tty = 'isTTY' in stream && stream.isTTY === true;
  let shown = false;
  let lastTenth = 0;
  return {
    step(done: number, total: number) {
      if (tty) {
        stream.write(`\r\x1b[2K  ${label}: ${done}/${total} written`);
        shown = true;
        return;
      }
      // Small runs list every write in the result; only long ones need a heartbeat.
      const tenth = Math.floor((done * 10) / total);
      if (total >= 20 && tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`  ${label}: ${done}/${total} written\n`);
      }
    },
    end() {
      if (tty && shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
};
