import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../core/store/database';
import { FlowRepository } from '../core/store/flow-repository';
import { generatedFlow } from '../tests/helpers/flows';
import { benchEditorCheck } from './editor-check.bench';
import { median, ms, percentile, timeRuns, type BenchRow } from './stats';

/** Issue 2: import, load and a one-node move on a 5,000-node, 5,000-edge flow; the editor's check after an edit. */
export async function benchStore(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-bench-'));
  try {
    const flow = generatedFlow(5000, 'big');
    const imports = await timeRuns(
      5,
      (i) => {
        const store = openDatabase(join(dir, `import-${i}.db`));
        new FlowRepository(store).create(flow);
        store.close();
      },
      1,
    );

    const store = openDatabase(join(dir, 'main.db'));
    const flows = new FlowRepository(store);
    flows.create(flow);
    const loads = await timeRuns(30, () => flows.get('big'));
    const rowsWritten: number[] = [];
    const moves = await timeRuns(300, (i) => {
      const result = flows.applyChanges('big', { updateNodes: [{ id: `n${(i + 2) * 7}`, position: { x: i, y: i } }] });
      rowsWritten.push(result.rowsWritten);
    });
    store.close();

    const maxRows = Math.max(...rowsWritten);
    return [
      {
        suite: 'store',
        metric: 'import 5,000 nodes + 5,000 edges (validate + write)',
        value: `median ${ms(median(imports))}`,
      },
      {
        suite: 'store',
        metric: 'load 5,000-node flow',
        value: `median ${ms(median(loads))}`,
        goal: '< 100 ms',
        ratio: median(loads) / 100,
      },
      {
        suite: 'store',
        metric: 'one-node move (p50 / p95)',
        value: `${ms(median(moves))} / ${ms(percentile(moves, 95))}`,
        goal: '< 5 ms',
        ratio: percentile(moves, 95) / 5,
      },
      {
        suite: 'store',
        metric: 'rows written by a one-node move (max)',
        value: String(maxRows),
        goal: '1 row',
        ratio: maxRows / 1,
      },
      ...benchEditorCheck(),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
