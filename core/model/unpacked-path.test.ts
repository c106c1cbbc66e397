import { describe, expect, it } from 'vitest';
import { unpackedPath } from './unpacked-path';

describe('unpackedPath', () => {
  it("points a path inside a packaged app's archive at the unpacked file beside it", () => {
    expect(unpackedPath('/opt/Flowbench/resources/app.asar/out/worker/run-writer.worker.mjs')).toBe(
      '/opt/Flowbench/resources/app.asar.unpacked/out/worker/run-writer.worker.mjs',
    );
    expect(unpackedPath('C:\\Program Files\\Flowbench\\resources\\app.asar\\bin\\flowbench')).toBe(
      'C:\\Program Files\\Flowbench\\resources\\app.asar.unpacked\\bin\\flowbench',
    );
  });

  it('leaves a checkout, and a path already unpacked, as they are', () => {
    expect(unpackedPath('/work/main/out/worker/run-writer.worker.mjs')).toBe(
      '/work/main/out/worker/run-writer.worker.mjs',
    );
    expect(unpackedPath('/opt/F/resources/app.asar.unpacked/bin/flowbench')).toBe(
      '/opt/F/resources/app.asar.unpacked/bin/flowbench',
    );
  });
});
