import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Starts the test provider in a child process; resolves with its URL and a stop function. `toolTurns`: see the script. */
export function startChildOpenAiServer(delayMs: number, toolTurns = 0): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'openai-server-process.ts'), String(delayMs), String(toolTurns)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (chunk: Buffer) =>
      resolve({ url: chunk.toString().trim(), stop: () => child.stdin.end() }),
    );
  });
}
