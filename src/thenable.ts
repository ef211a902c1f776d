// Whether a value is a promise: a handler that answers synchronously skips every await.

/** Whether `value` is a promise (or any thenable). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function';
