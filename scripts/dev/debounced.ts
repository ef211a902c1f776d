// A task that runs once a burst of triggers pauses (a save is often several file events), one run
// at a time: a burst during a run waits for it.

export interface Debounced {
  /** Asks for a run; resolves when the run that takes this trigger in has ended. */
  (): Promise<void>;
  /** Drops a run not started yet. */
  cancel(): void;
}

/**
 * `task` run `ms` after the last trigger, after any run before it; `onError` hears what a run threw.
 * @example const onChange = debounced(reload, 300, (error) => fail(error.message)); watcher.on('all', () => void onChange());
 */
export const debounced = (task: () => Promise<void>, ms: number, onError: (error: Error) => void): Debounced => {
  let timer: NodeJS.Timeout | undefined;
  let waiting: Array<() => void> = [];
  let busy = Promise.resolve();
  const trigger = () => {
    clearTimeout(timer);
    const ran = new Promise<void>((resolve) => waiting.push(resolve));
    timer = setTimeout(() => {
      const taken = waiting;
      waiting = [];
      busy = busy
        .then(task)
        .catch(onError)
        .finally(() => {
          for (const resolve of taken) resolve();
        });
    }, ms);
    return ran;
  };
  return Object.assign(trigger, { cancel: () => clearTimeout(timer) });
};
