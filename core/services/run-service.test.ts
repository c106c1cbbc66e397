import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { greeterFlow } from '../../tests/helpers/flow-builder';
import { useTempDir } from '../../tests/helpers/temp';
import { openServices } from './open-services';

const tempDir = useTempDir();
const flow = greeterFlow('greeter');

describe.each([
  ['inline', false],
  ['in the background', true],
])('RunService writing %s', (_, backgroundWrites) => {
  it('returns a run only once it is stored', async () => {
    const services = openServices(join(tempDir(), 'runs.db'), { backgroundWrites });
    try {
      services.flows.create(flow);
      const record = await services.runner.run({ flow, inputs: { who: 'otter' }, trigger: 'cli' });
      // Read with a second connection, which sees only what was committed.
      const other = openServices(services.database.path);
      expect(other.runs.get(record.id)).toMatchObject({ status: 'succeeded', steps: expect.any(Array) });
      other.close();
    } finally {
      services.close();
    }
  });

  it('fails the run, naming why, when its records cannot be stored (security finding 8: no silent exit 0)', async () => {
    // What the writer says on stderr is checked here rather than printed into the test log as if something broke.
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const services = openServices(join(tempDir(), 'unstored.db'), { backgroundWrites });
    try {
      // The flow is not in this database, so the run row's foreign key refuses it, as a read-only file would.
      const failure = await services.runner
        .run({ flow, inputs: { who: 'otter' }, trigger: 'cli' })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'DATABASE_ERROR' });
      expect((failure as Error).message).toMatch(/ended succeeded but could not be stored: FOREIGN KEY/);
      expect(stderr.mock.calls.map(([text]) => String(text)).join('')).toMatch(
        /flowbench: \d+ run record write\(s\) failed and were skipped: FOREIGN KEY constraint failed/,
      );
    } finally {
      services.close();
      stderr.mockRestore();
    }
  });
});
