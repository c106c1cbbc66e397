/**
 * A host that dies as `kill -9` kills one: opens a database with background
 * writes (so with a run journal), runs a flow `count` times, prints each run's
 * id once its result is durable (as an MCP answer would go out), then kills
 * itself at once. Usage: journal-child.ts <db> <flow id> <count>
 */
import { openServices } from '../../core/services/open-services';

const [db, flowId, count] = process.argv.slice(2) as [string, string, string];
const services = openServices(db, { backgroundWrites: true });
const flow = services.flows.get(flowId);
for (let i = 0; i < Number(count); i++) {
  const record = await services.runner.run({ flow, inputs: { who: `caller ${i}` }, trigger: 'mcp' });
  process.stdout.write(`${record.id}\n`);
}
process.kill(process.pid, 'SIGKILL');
