import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { smallFlow } from '../../tests/helpers/flows';
import { useTempDir } from '../../tests/helpers/temp';
import { openDatabase, type FlowbenchDatabase } from './database';
import { FlowRepository } from './flow-repository';
import { MemoryRepository } from './memory-repository';

const tempDir = useTempDir();
let store: FlowbenchDatabase;
let memory: MemoryRepository;
const DAY = 86_400_000;

beforeEach(() => {
  store = openDatabase(join(tempDir(), 'memory.db'));
  new FlowRepository(store).create(smallFlow());
  memory = new MemoryRepository(store.db);
});
afterEach(() => store.close());

const write = (payload: string, at: number, flowVersion?: number, settings = {}) =>
  memory.append(
    {
      flowId: 'small',
      channel: 'notes',
      payload,
      runId: `run-${payload}`,
      nodeId: 'n',
      ...(flowVersion ? { flowVersion } : {}),
    },
    { id: 'notes', ...settings },
    at,
  );
const kept = () => memory.entries('small', 'notes', 100).map((e) => e.payload);

describe('MemoryRepository', () => {
  it('keeps entries for the days a channel says, dropping older ones when it writes', () => {
    write('old', 0);
    write('week', 5 * DAY);
    write('new', 10 * DAY, undefined, { retentionDays: 7 });
    expect(kept()).toEqual(['week', 'new']);
  });

  it('keeps the entries of the last N published versions; a draft run counts as the newest', () => {
    write('v1', 1, 1);
    write('v2', 2, 2);
    write('draft', 3);
    write('v3', 4, 3, { retentionVersions: 2 });
    expect(kept()).toEqual(['v2', 'draft', 'v3']);
  });

  it('reads the last entries oldest first, and clears a channel or all', () => {
    for (const [i, p] of ['a', 'b', 'c'].entries()) write(p, i);
    expect(memory.entries('small', 'notes', 2).map((e) => e.payload)).toEqual(['b', 'c']);
    expect(memory.channels('small', [])).toEqual([
      { channel: 'notes', entries: 3, lastWrittenAt: new Date(2).toISOString() },
    ]);
    expect(memory.clear('small', 'other')).toBe(0);
    expect(memory.clear('small')).toBe(3);
    expect(kept()).toEqual([]);
  });
});
