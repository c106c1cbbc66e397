/**
 * A host (background writes, so with a run journal) driven over stdin, for a
 * database that starts refusing writes: `run <n> <ms>` runs the flow n times one
 * after the other, `ms` apart (a commit each) and prints a JSON line, `{ ok: [run ids], failed: [errors] }`,
 * once each result is settled as an MCP answer would be (durable, or an error
 * saying why not); `exit` closes the services and ends the process.
 * Usage: refusing-host.ts <db> <flow id>
 */
import { createInterface } from 'node:readline';
import { openServices } from '../../core/services/open-services';

const [db, flowId] = process.argv.slice(2) as [string, string];
const services = openServices(db, { backgroundWrites: true });
const flow = services.flows.get(flowId);
let calls = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, count, pause] = line.split(' ');
  if (command === 'exit') break;
  const ok: string[] = [];
  const failed: string[] = [];
  for (let i = 0; i < Number(count); i++) {
    await new Promise((resolve) => setTimeout(resolve, Number(pause ?? 0)));
    try {
      ok.push((await services.runner.run({ flow, inputs: { who: `caller ${calls++}` }, trigger: 'mcp' })).id);
    } catch (error) {
      failed.push((error as Error).message);
    }
  }
  process.stdout.write(`${JSON.stringify({ ok, failed })}\n`);
}
services.close();
