/** Fields of one log line. Never argument values unless the function opted in, never secrets. */
export type LogFields = Record<string, string | number | boolean | null | undefined | object>;

/** The one structured logger: JSON lines on the Worker's console, bound to a request. */
export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

type Sink = (line: string) => void;

// The only console use in the Worker; tests swap the sink to read what was logged.
// biome-ignore lint/suspicious/noConsole: the logger is the one place that writes to the console
let sink: Sink = (line) => console.log(line);

/** Replaces where log lines go (tests capture them); returns the previous sink. */
export const setLogSink = (next: Sink): Sink => {
  const previous = sink;
  sink = next;
  return previous;
};

/**
 * A logger whose every line carries `base` (for example the function name and request id).
 * @example createLogger({ fn: 'lookup_warranty' }).info('invoked', { status: 200 })
 */
export const createLogger = (base: LogFields = {}): Logger => new BoundLogger(base);

// A class rather than closures: a logger is made for every call, so it should cost one small object.
class BoundLogger implements Logger {
  declare private readonly base: LogFields;
  constructor(base: LogFields) {
    this.base = base;
  }
  private write(level: string, event: string, fields: LogFields | undefined) {
    sink(JSON.stringify({ level, event, ...this.base, ...fields, time: new Date().toISOString() }));
  }
  info(event: string, fields?: LogFields) {
    this.write('info', event, fields);
  }
  warn(event: string, fields?: LogFields) {
    this.write('warn', event, fields);
  }
  error(event: string, fields?: LogFields) {
    this.write('error', event, fields);
  }
}
