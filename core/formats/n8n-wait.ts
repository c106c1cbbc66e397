import { MAX_WAIT_MS, WAIT_UNIT_MS, waitLength, type WaitUnit } from '../model/wait';
import { preview, type ConvertContext, type NodeKind } from './n8n-model';
import { asString } from './shared';

/** n8n's units: Flowbench's, and days. */
const N8N_UNIT_MS: Readonly<Record<string, number>> = { ...WAIT_UNIT_MS, days: 24 * WAIT_UNIT_MS.hours };

/** What a Wait that resumes otherwise than after a time does in n8n, and what takes its place here. */
const OTHER_RESUMES: Readonly<Record<string, string>> = {
  specificTime: 'waits until a date and time',
  webhook: 'waits for a call to its resume URL',
  form: 'waits for a person to submit its form',
};

/**
 * n8n's Wait, "after time interval", as a wait node handing its item on.
 * n8n writes no parameter left at its default, and the defaults changed with
 * version 1.1 (1 hour before, 5 seconds since).
 */
export const wait: NodeKind = {
  // It hands on the item that came in: `$json` after it reads what `$json` read before it.
  data: (_node, _id, input) => input,
  convert: (ctx) => {
    const p = ctx.node.parameters;
    // What it passes on is its item: the output of the node it came from (an agent's answer, not n8n's
    // `{ output }` around it). After a trigger or a node whose item cannot be read here, nothing: the nodes
    // after it read past it, and say so there.
    const data = ctx.inputData(0);
    const value = data?.kind === 'object' || data?.kind === 'answer' ? `{{nodes.${data.nodeId}.output}}` : '';
    const resume = asString(p.resume, 'timeInterval');
    if (resume !== 'timeInterval') {
      const what = OTHER_RESUMES[resume] ?? `resumes by "${resume}"`;
      const instead =
        resume === 'webhook' || resume === 'form' ? ' (an ask node asks a person and waits for the answer)' : '';
      ctx.problem(`it ${what}, which Flowbench does not do: here it waits no time${instead}`, { field: 'resume' });
      // Its other parameters (the webhook's method, the form's fields) belong to that way of resuming, said as a whole.
      return { type: 'wait', config: { amount: 0, unit: 'seconds', value }, read: Object.keys(p) };
    }
    const [amount, unit] = interval(ctx);
    return { type: 'wait', config: { amount, unit, value }, read: ['resume', 'amount', 'unit'] };
  },
};

/** The wait in Flowbench's units: days as hours, within the longest wait; what cannot be kept is said. */
function interval(ctx: ConvertContext): [number, WaitUnit] {
  const p = ctx.node.parameters;
  const since11 = ctx.node.typeVersion >= 1.1;
  const fallback: [number, WaitUnit] = since11 ? [5, 'seconds'] : [1, 'hours'];
  const unitName = asString(p.unit, fallback[1]);
  const unitMs = N8N_UNIT_MS[unitName];
  if (unitMs === undefined) {
    const message = `its unit ${preview(unitName)} is none n8n knows (the node fails there)`;
    ctx.problem(`${message}: here it waits ${waitLength(...fallback)}`, { field: 'unit' });
    return fallback;
  }
  const given = p.amount ?? fallback[0];
  const amount = typeof given === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(given) ? Number(given) : given;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
    const why =
      typeof given === 'string' && given.startsWith('=')
        ? `an expression (${preview(given)}), which n8n works out as the node runs`
        : `${preview(given)}, not a number of ${unitName}`;
    ctx.problem(`its wait is ${why}: here it waits ${waitLength(...fallback)}; set the wait`, {
      field: 'amount',
    });
    return fallback;
  }
  if (amount * unitMs > MAX_WAIT_MS) {
    ctx.problem(
      `it waits ${amount} ${unitName}, longer than a Flowbench run waits: here it waits 24 hours (n8n keeps a waiting run on disk; Flowbench waits in the running app)`,
      { field: 'amount' },
    );
    return [24, 'hours'];
  }
  return unitName === 'days' ? [amount * 24, 'hours'] : [amount, unitName as WaitUnit];
}
