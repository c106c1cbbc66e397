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

  it('a per-conversation channel reads only its conversation; a run given none reads only its own entries', () => {
    const settings = [{ id: 'chat', perConversation: true }];
    const port = (runId: string, conversation?: string) =>
      memory.port({ flowId: 'small', runId, settings, ...(conversation ? { conversation } : {}) });
    const read = (runId: string, conversation?: string) =>
      port(runId, conversation)
        .read('chat', 10)
        .map((e) => e.payload);
    port('r1', 'a').write('chat', 'a1', 'n');
    port('r2', 'b').write('chat', 'b1', 'n');
    port('r3', 'a').write('chat', 'a2', 'n');
    port('r4').write('chat', 'lone', 'n');
    expect(read('r5', 'a')).toEqual(['a1', 'a2']);
    expect(read('r5', 'b')).toEqual(['b1']);
    expect(read('r4')).toEqual(['lone']);
    expect(read('r6')).toEqual([]);
    // A channel shared by every run reads all of them, each entry saying its conversation.
    const shared = memory.port({ flowId: 'small', runId: 'r7', conversation: 'a', settings: [] }).read('chat', 10);
    expect(shared.map((e) => [e.payload, e.conversation])).toEqual([
      ['a1', 'a'],
      ['b1', 'b'],
      ['a2', 'a'],
      ['lone', undefined],
    ]);
    expect(memory.clear('small', 'chat', 'a')).toBe(2);
    expect(memory.entries('small', 'chat', 10).map((e) => e.payload)).toEqual(['b1', 'lone']);
  });
});
