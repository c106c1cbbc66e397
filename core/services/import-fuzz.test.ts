import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { useTempDir } from '../../tests/helpers/temp';
import { FlowbenchError } from '../model/errors';
import { EXAMPLES_FOLDER } from './examples';
import { importFlowText } from './import-service';
import { openServices } from './open-services';

const tempDir = useTempDir();
const FIXTURES = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'formats');
/** Copies of each file, each changed in one to four places. */
const COPIES = 30;

/** Values a hand-edited or generated file puts where it should not; names every object inherits among them. */
const ODD_VALUES = [
  null,
  true,
  0,
  -1,
  1.5,
  '',
  '{{',
  '{{nodes.x.output}}',
  '={{ $json.a }}',
  [],
  {},
  [null],
  '💥',
  'constructor',
  'toString',
];
const ODD_KEYS = ['constructor', '__proto__', 'toString', 'id', 'type', 'config', 'nodes', 'edges', 'source', 'target'];

/** A small deterministic generator (mulberry32): the same copies on every run. */
function generator(seed: number) {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T };
}

type Json = Record<string | number, unknown>;

/** Every place in a JSON value, as the path to it. */
function places(value: unknown, path: (string | number)[] = [], found: (string | number)[][] = []) {
  found.push(path);
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value))
      places(inner, [...path, Array.isArray(value) ? Number(key) : key], found);
  }
  return found;
}

/** The file changed in a few places: a value replaced or moved, an entry removed or doubled, a key added. */
function changed(file: unknown, { random, pick }: ReturnType<typeof generator>): unknown {
  const copy = structuredClone(file);
  const all = places(copy).filter((path) => path.length > 0);
  for (let i = 1 + Math.floor(random() * 4); i > 0; i--) {
    const path = pick(all);
    const parent = path.slice(0, -1).reduce<unknown>((at, key) => (at as Json | undefined)?.[key], copy) as Json;
    const key = path.at(-1) as string | number;
    if (parent === null || typeof parent !== 'object') continue;
    const roll = random();
    if (roll < 0.4) parent[key] = structuredClone(pick(ODD_VALUES));
    else if (roll < 0.6 && Array.isArray(parent)) parent.splice(Number(key), 1);
    else if (roll < 0.6) delete parent[key];
    else if (roll < 0.75) parent[key] = structuredClone(parent[pick(Object.keys(parent))] ?? null);
    else if (roll < 0.85 && Array.isArray(parent)) parent.push(structuredClone(parent[Number(key)]));
    else if (!Array.isArray(parent)) parent[pick(ODD_KEYS)] = structuredClone(pick(ODD_VALUES));
  }
  return copy;
}

describe('importing a changed copy of a real flow file', () => {
  const files = [
    ...readdirSync(FIXTURES).map((name) => join(FIXTURES, name)),
    ...readdirSync(EXAMPLES_FOLDER).map((name) => join(EXAMPLES_FOLDER, name)),
  ];

  /** What became of a file's changed copies (imported, refused), worked out once; a crash fails the test asking. */
  const outcomes = new Map<string, Promise<Set<string>>>();
  const outcomesOf = (path: string): Promise<Set<string>> => {
    let found = outcomes.get(path);
    if (!found) outcomes.set(path, (found = importCopies(path)));
    return found;
  };

  async function importCopies(path: string): Promise<Set<string>> {
    const services = openServices(join(tempDir(), `${basename(path)}.db`));
    const text = readFileSync(path, 'utf8');
    const isYaml = path.endsWith('.yaml');
    const file: unknown = isYaml ? parseYaml(text) : JSON.parse(text);
    const random = generator(path.length);
    const seen = new Set<string>();
    try {
      for (let copy = 0; copy < COPIES; copy++) {
        const value = changed(file, random);
        const copyText = isYaml ? toYaml(value) : JSON.stringify(value, null, 2);
        try {
          const report = await importFlowText(services, copyText, `copy ${copy} of ${path}`);
          // What was stored reads back.
          expect(services.flows.get(report.flow.id).id).toBe(report.flow.id);
          seen.add('imported');
        } catch (error) {
          // A TypeError from an importer, or an INTERNAL_ERROR, is a crash the file's author cannot act on.
          expect(error, `copy ${copy}: ${(error as Error).stack}\n${copyText.slice(0, 2000)}`).toBeInstanceOf(
            FlowbenchError,
          );
          expect((error as FlowbenchError).code).not.toBe('INTERNAL_ERROR');
          seen.add('refused');
        }
      }
    } finally {
      services.close();
    }
    return seen;
  }

  it.each(files.map((path) => [basename(path), path]))(
    'of %s imports it or refuses it with a clear error, never a crash',
    async (_, path) => {
      // The copies are changed little enough to import at times.
      expect(await outcomesOf(path)).toContain('imported');
    },
  );

  // Over all the files, not each one's: an importer that carries over what it can (n8n's, since it takes two
  // nodes of one name) may take every copy of its file.
  it('the copies are changed enough to be refused at times', async () => {
    const seen = new Set<string>();
    for (const path of files) for (const outcome of await outcomesOf(path)) seen.add(outcome);
    expect([...seen].sort()).toEqual(['imported', 'refused']);
  });
});
