import { openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const APPEND_TO = 'FLOWBENCH_BENCH_APPEND';

/** The options that start a bare server (stdio transport) appending a journal line per call in `folder`; none without one. */
export function appendingServerOptions(folder?: string): { env?: Record<string, string> } {
  return folder ? { env: { ...(process.env as Record<string, string>), [APPEND_TO]: folder } } : {};
}

/**
 * The bare servers' optional reference mode: with FLOWBENCH_BENCH_APPEND set
 * to a folder, each echo first appends one line to a file there, shaped and
 * sized as the run-journal line Flowbench appends before it answers a one-node
 * call (JSON of the run's row, its step's row and the journal mark, about 540
 * bytes; see core/store/run-journal.ts), with a plain `writeSync` as ours.
 *
 * Why: "every acknowledged call durable" costs any server that append, whatever
 * else it does; the bench prints what it costs a bare server on the same
 * machine, beside the goals that compare Flowbench with a bare one.
 */
export function journalAppender(): ((message: string) => void) | undefined {
  const folder = process.env[APPEND_TO];
  if (!folder) return undefined;
  const fd = openSync(join(folder, `bare-${process.pid}.jsonl`), 'a', 0o600);
  let id = 0;
  return (message) => {
    id++;
    const now = Date.now();
    const runId = `01a216c2-7792-74f8-bf61-${String(id).padStart(12, '0')}`;
    const inputs = JSON.stringify({ message });
    const line = JSON.stringify({
      id,
      writes: [
        [
          'insertFinishedRun',
          [
            runId,
            'bench-echo',
            'Bench echo',
            1,
            'f'.repeat(64),
            inputs,
            'mcp',
            'bench',
            process.pid,
            now,
            null,
            null,
            null,
            'succeeded',
            null,
            null,
            null,
            null,
            now,
            0,
          ],
        ],
        [
          'upsertStep',
          [
            runId,
            'echo',
            0,
            'succeeded',
            1,
            JSON.stringify({ 'inputs.message': message }),
            JSON.stringify(message),
            null,
            null,
            null,
            null,
            now,
            now,
            null,
            null,
            null,
            1,
          ],
        ],
        ['markJournal', [`${process.pid}-${now}-a47bcac3.jsonl`, id]],
      ],
    });
    writeSync(fd, `${line}\n`);
  };
}
