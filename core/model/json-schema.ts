import type * as AjvModuleNamespace from 'ajv';
import type { Ajv } from 'ajv';
import { loadOnce } from './load-once';

type AjvModule = typeof AjvModuleNamespace;

/**
 * ajv is CommonJS. Node and Vite give its exports as named ones; the CLI's
 * bundle (esbuild, split into chunks) gives them only as the default export,
 * where `Ajv` was undefined and every schema check failed ("AjvClass is not
 * a constructor").
 */
function ajvClass(loaded: AjvModule): AjvModule['Ajv'] {
  const found = loaded.Ajv ?? (loaded.default as unknown as Partial<AjvModule> | undefined)?.Ajv;
  if (!found) throw new Error('the JSON Schema checker (ajv) did not load: it exports no Ajv class here');
  return found;
}

// Loaded on first use: the editor, which never checks answers or tool arguments, does not carry it.
/** The one JSON Schema checker (ajv), loaded on first use: JSON answers, test cases and tool arguments use it. */
export const loadAjv: () => Promise<Ajv> = loadOnce(() =>
  import('ajv').then((loaded) => {
    const AjvClass = ajvClass(loaded);
    return new AjvClass({ allErrors: true, strict: false });
  }),
);

/**
 * What is wrong with `value` against `schema`, one line per problem; empty
 * when it matches. Throws when the schema itself cannot be compiled.
 */
export async function schemaProblems(schema: Record<string, unknown>, value: unknown): Promise<string[]> {
  const validate = (await loadAjv()).compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
