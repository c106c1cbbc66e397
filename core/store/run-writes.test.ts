import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../model/run';
import { eventWrite, mergeWrites, type RecordedRun } from './run-writes';
import type { RunWrite } from './run-statements';

const recorded = (): RecordedRun => ({ seq: new Map() });
const writesOf = (events: [RunEvent, RecordedRun][]): RunWrite[] =>
  events.map(([event, run]) => eventWrite(event, run)).filter((write) => write !== undefined);

describe('mergeWrites', () => {
  it('writes each step once per run and pass, keeping the first start, the last status and the highest attempt', () => {
    const a = recorded();
    const b = recorded();
    const merged = mergeWrites(
      writesOf([
        [{ type: 'node.started', runId: 'A', nodeId: 'n', attempt: 1, at: 10 }, a],
        [{ type: 'node.started', runId: 'B', nodeId: 'n', attempt: 1, at: 11 }, b],
        [{ type: 'node.started', runId: 'A', nodeId: 'n', attempt: 2, at: 12 }, a],
        [{ type: 'node.finished', runId: 'A', nodeId: 'n', at: 20, durationMs: 10, attempts: 2, output: 'a' }, a],
        // A second pass of a loop is its own step, after the first.
        [{ type: 'node.started', runId: 'A', nodeId: 'n', attempt: 1, at: 21, iteration: 2 }, a],
        [{ type: 'node.skipped', runId: 'B', nodeId: 'n', at: 22 }, b],
      ]),
    );
    expect(
      merged.map(([name, params]) => [
        name,
        params[0],
        params[1],
        params[2],
        params[3],
        params[4],
        params[11],
        params[12],
        params[16],
      ]),
      // The order of steps in a batch does not matter: each row says its run and position.
    ).toEqual(
      expect.arrayContaining([
        // statement, run, node, seq, status, attempts, startedAt, finishedAt, iteration
        ['upsertStep', 'A', 'n', 0, 'succeeded', 2, 10, 20, 1],
        ['upsertStep', 'A', 'n', 1, 'running', 1, 21, null, 2],
        ['upsertStep', 'B', 'n', 0, 'skipped', 1, 11, 22, 1],
      ]),
    );
    expect(merged).toHaveLength(3);
    expect(merged.find(([, params]) => params[0] === 'A' && params[2] === 0)?.[1][6]).toBe('"a"');
  });
});
