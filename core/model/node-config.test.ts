import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { NodeTypeSpec } from './node-catalogue';
import { parseNodeConfig } from './node-config';

// A node type at version 3 whose config was renamed twice: v1 `text` → v2 `body` → v3 `body` + `format`.
const spec: NodeTypeSpec = {
  type: 'note',
  version: 3,
  inputs: [],
  outputs: [],
  configSchema: z.object({ body: z.string(), format: z.enum(['plain', 'markdown']) }),
  templates: () => [],
  migrations: {
    1: ({ text, ...rest }) => ({ ...rest, body: text }),
    2: (config) => ({ ...config, format: 'plain' }),
  },
};

describe('parseNodeConfig', () => {
  it('migrates a config saved at an older version through every step, then parses it', () => {
    expect(parseNodeConfig(spec, { version: 1, config: { text: 'hello' } })).toEqual({
      ok: true,
      config: { body: 'hello', format: 'plain' },
      version: 3,
    });
    expect(parseNodeConfig(spec, { version: 2, config: { body: 'hi' } })).toEqual({
      ok: true,
      config: { body: 'hi', format: 'plain' },
      version: 3,
    });
  });

  it('refuses a config newer than the type, and a version with no migration', () => {
    expect(parseNodeConfig(spec, { version: 4, config: {} })).toMatchObject({
      ok: false,
      message: 'config version 4 is newer than this Flowbench knows (3)',
    });
    const gap = { ...spec, migrations: { 2: spec.migrations?.[2] } } as NodeTypeSpec;
    expect(parseNodeConfig(gap, { version: 1, config: { text: 'x' } })).toMatchObject({
      ok: false,
      message: 'no migration from config version 1',
    });
  });

  it('reports schema issues of the migrated config', () => {
    const result = parseNodeConfig(spec, { version: 3, config: { body: 1, format: 'plain' } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((i) => i.path.join('.'))).toEqual(['body']);
  });
});
