/**
 * What a process does once the reader of its stdout has gone (EPIPE). By
 * default it ends at once, with the exit code it has so far: `flowbench runs
 * list | head` leaves nobody to tell anything. `flowbench mcp` goes on instead
 * (whenStdoutClosed): a client that died left runs that must end and be
 * stored, flows_start's and tasks' among them, which the old exit killed
 * mid-run.
 */
let onClosed: (() => void) | undefined;
let closed = false;

/** Installs the one handler of stdout's errors; main.ts calls it at start. */
export function handleStdoutClosed(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // Every later write to the closed stdout fails too (ERR_STREAM_DESTROYED): nobody to tell either.
    if (closed) return;
    if (error.code !== 'EPIPE') throw error;
    closed = true;
    if (onClosed) onClosed();
    // With the exit code the command set: `flowbench test … | head` whose cases failed exited 0.
    else process.exit();
  });
}

/** Resolves once stdout's reader has gone; from then on the process is not ended for it. */
export function whenStdoutClosed(): Promise<void> {
  if (closed) return Promise.resolve();
  return new Promise((resolve) => (onClosed = resolve));
}
