import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'flowbench');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `./bin/flowbench` as a user would, with a clean FLOWBENCH_DB.
 * Asynchronous, so servers in the test process keep answering meanwhile.
 */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, FLOWBENCH_DB: '', ...env },
    });
    // Given: piped in and closed, as `echo … | flowbench …` does.
    if (stdin !== undefined) child.stdin.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export async function runJson<T>(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<T> {
  const result = await runCli([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`flowbench ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Points the provider named `test` at an OpenAI-compatible URL, through the CLI as a person would. */
export const setTestProvider = (db: string, baseUrl: string, model: string, ...more: string[]) =>
  runJson([
    '--db',
    db,
    'providers',
    'set',
    'test',
    '--kind',
    'openai-compatible',
    '--base-url',
    baseUrl,
    '--default-model',
    model,
    ...more,
  ]);
