import { Writable } from 'node:stream';
import { setImmediate as nextLoop } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from './coalesced-writes';

/** A stream that records what each of its system calls (one _write or _writev) would have carried. */
function recordingStream(highWaterMark?: number): { stream: Writable; calls: string[][] } {
  const calls: string[][] = [];
  const stream = new Writable({
    ...(highWaterMark === undefined ? {} : { highWaterMark }),
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, calls };
}

describe('coalesceWrites', () => {
  it('sends the writes of one turn, promise jobs included, in one call and in order; a later turn in another', async () => {
    const { stream, calls } = recordingStream();
    coalesceWrites(stream);
    stream.write('a\n');
    void Promise.resolve().then(() => stream.write('b\n'));
    stream.write('c\n');
    await nextLoop();
    stream.write('d\n');
    await nextLoop();
    expect(calls).toEqual([['a\n', 'c\n', 'b\n'], ['d\n']]);
  });

  it("keeps the stream's backpressure: a turn's writes past its buffer are refused until it drains", async () => {
    const { stream, calls } = recordingStream(4);
    coalesceWrites(stream);
    expect(stream.write('ab')).toBe(true);
    expect(stream.write('cdef')).toBe(false);
    await new Promise((resolve) => stream.once('drain', resolve));
    expect(calls.flat().join('')).toBe('abcdef');
  });
});
