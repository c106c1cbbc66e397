/**
 * Commits batches of run-record writes, in order, on one better-sqlite3
 * connection. Shared by the inline writer (main thread) and the background
 * writer's worker, which loads plain JavaScript only: hence a .mjs file with
 * its types in run-batches.d.mts.
 */

/** Another connection holds the write lock past busy_timeout: worth trying again later. */
const isBusy = (error) => typeof error?.code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(error.code);

export function createBatchCommitter(db, statements, hooks) {
  const prepared = Object.fromEntries(Object.entries(statements).map(([name, sql]) => [name, db.prepare(sql)]));
  const commit = db.transaction((writes) => {
    for (const [name, params] of writes) prepared[name].run(params);
  });
  // After a failure that waiting does not fix (the run's flow was deleted meanwhile, a full
  // disk): the same batch write by write, so one bad record does not take the others with it.
  const commitEach = db.transaction((writes) => {
    const failed = [];
    for (const write of writes) {
      try {
        prepared[write[0]].run(write[1]);
      } catch (error) {
        if (isBusy(error)) throw error;
        failed.push({ write, error });
      }
    }
    return failed;
  });
  const pending = [];
  let retryTimer;

  const retryLater = (error) => {
    hooks.onBusy(error);
    retryTimer ??= setTimeout(() => {
      retryTimer = undefined;
      drain();
    }, hooks.retryMs ?? 1000);
  };

  /** Commits what is pending; false when the database stayed locked (a retry is scheduled). */
  function drain() {
    while (pending.length > 0) {
      const batch = pending[0];
      try {
        commit(batch.writes);
      } catch (error) {
        if (isBusy(error)) return (retryLater(error), false);
        try {
          const failed = commitEach(batch.writes);
          if (failed.length > 0) hooks.onFailed(failed);
        } catch (again) {
          if (isBusy(again)) return (retryLater(again), false);
          hooks.onFailed(batch.writes.map((write) => ({ write, error: again })));
        }
      }
      pending.shift();
      hooks.onSettled?.(batch);
    }
    return true;
  }

  return {
    add(batch) {
      pending.push(batch);
      // While a retry waits for the lock, new batches line up behind it.
      if (retryTimer === undefined) drain();
    },
    drain,
    get pendingCount() {
      return pending.length;
    },
    stop() {
      clearTimeout(retryTimer);
      retryTimer = undefined;
    },
  };
}
