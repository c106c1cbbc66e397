/**
 * A host that dies as `kill -9` kills one: opens a database with background
 * writes (so with a run journal), runs a flow `count` times, prints each run's
 * id once its result is durable (as an MCP answer would go out), then kills
 * itself at once. Usage: journal-child.ts <db> <flow id> <count> [together]
 * (`together`: after the first, the runs start at once, as concurrent calls do).
 */
import { openServices } from '../../core/services/open-services';

const [db, flowId, count, together] = process.argv.slice(2) as [string, string, string, string | undefined];
const services = openServices(db, { backgroundWrites: true });
const flow = services.flows.get(flowId);
const runOne = async (i: number) => {
  const record = await services.runner.run({ flow, inputs: { who: `caller ${i}` }, trigger: 'mcp' });
  process.stdout.write(`${record.id}\n`);
};
if (together === 'together') {
  // The first run alone (an answer waits for the first commit: the writer has not shown it can commit yet),
  // then the others as concurrent MCP calls: each starts a little after the one before, within one turn of
  // the event loop (as the SDK hands on the requests one chunk of stdin brought), so each ends after the
  // one before has ended and asked for its records to be durable.
  await runOne(0);
  const later = async (i: number) => {
    for (let tick = 0; tick < i * 50; tick++) await Promise.resolve();
    await runOne(i);
  };
  await Promise.all(Array.from({ length: Number(count) - 1 }, (_, i) => later(i + 1)));
} else {
  for (let i = 0; i < Number(count); i++) await runOne(i);
}
process.kill(process.pid, 'SIGKILL');
