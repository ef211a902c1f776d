// RPC results that hold a handle (a workflow instance) are released when the caller is done with
// them; left to the garbage collector, workerd warns that one "was not disposed properly".

/**
 * Releases an RPC result now; a value without `Symbol.dispose` is left as it is.
 * @example const instance = await workflow.get(id); try { await instance.terminate(); } finally { disposeHandle(instance); }
 */
export const disposeHandle = (handle: unknown): void => {
  if (typeof handle === 'object' && handle !== null) (handle as Partial<Disposable>)[Symbol.dispose]?.();
};
