import { FlowbenchError } from '../model/errors';

/** How a command that runs flows was stopped, if it was. */
export interface StopSignals {
  /** 130 after Ctrl-C, 143 after SIGTERM (as a shell reports a process its signal ended), undefined otherwise. */
  readonly exitCode: number | undefined;
  /** Stops listening: the process's default handling comes back. */
  dispose(): void;
}

/**
 * Ctrl-C and SIGTERM (a script's timeout, a process manager) cancel what
 * `controller` runs, saying which, so that its runs are stored cancelled
 * rather than left running for the next Flowbench to find; the same signal
 * again quits at once.
 */
export function cancelOnStopSignals(controller: AbortController, command: string): StopSignals {
  let exitCode: number | undefined;
  const stop = (name: 'SIGINT' | 'SIGTERM') => {
    const code = name === 'SIGINT' ? 130 : 143;
    if (exitCode !== undefined) process.exit(code);
    exitCode = code;
    const reason =
      name === 'SIGINT' ? 'cancelled with Ctrl-C' : `cancelled: \`flowbench ${command}\` was stopped (SIGTERM)`;
    process.stderr.write(
      name === 'SIGINT' ? '\ncancelling… (Ctrl-C again to quit at once)\n' : '\ncancelling (SIGTERM)…\n',
    );
    controller.abort(new FlowbenchError('CANCELLED', reason));
  };
  const onInterrupt = () => stop('SIGINT');
  const onTerminate = () => stop('SIGTERM');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  return {
    get exitCode() {
      return exitCode;
    },
    dispose() {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
    },
  };
}
