import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('loads once for every caller, at the same time or later', async () => {
    let loads = 0;
    const load = loadOnce(() => Promise.resolve(++loads));
    expect(load.current).toBeUndefined();
    expect(await Promise.all([load(), load()])).toEqual([1, 1]);
    expect(await load()).toBe(1);
    expect(await load.current).toBe(1);
    expect(loads).toBe(1);
  });

  it('tries a failed load again at the next call, and keeps the one that worked', async () => {
    let loads = 0;
    const load = loadOnce(() =>
      ++loads === 1 ? Promise.reject(new Error('EMFILE: too many open files')) : Promise.resolve('loaded'),
    );
    await expect(load()).rejects.toThrow('EMFILE');
    expect(load.current).toBeUndefined();
    expect(await load()).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
