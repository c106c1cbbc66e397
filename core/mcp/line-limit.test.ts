import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineLimiter } from './line-limit';

async function collect(limiter: LineLimiter): Promise<string> {
  let text = '';
  for await (const chunk of limiter) text += (chunk as Buffer).toString();
  return text;
}

describe('LineLimiter', () => {
  it('passes lines on whole, however the source cuts them, and drops each line over the limit, telling its start and size', async () => {
    const source = new PassThrough();
    const dropped: [string, number][] = [];
    const limiter = new LineLimiter(source, 10, (start, size) => dropped.push([start, size]));
    const text = collect(limiter);
    source.write('{"a":1}\n{"b"');
    source.write(':2}\n{"too":"long"}\n');
    source.write('{"c":3}\n');
    source.end();
    expect(await text).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(dropped).toEqual([['{"too":"long"}\n', 15]]);
  });

  it('pauses its source while nobody reads, and goes on when read', async () => {
    const source = new PassThrough();
    const limiter = new LineLimiter(source, 1024, () => undefined);
    const line = `${'x'.repeat(1000)}\n`;
    for (let i = 0; i < 40; i++) source.write(line);
    await new Promise((resolve) => setImmediate(resolve));
    // 40 kB written, more than a stream buffers: the limiter stopped taking it.
    expect(source.isPaused()).toBe(true);
    source.end();
    expect((await collect(limiter)).length).toBe(40 * line.length);
  });
});
