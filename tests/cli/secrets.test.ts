import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli';
import { buildFlow, input, output } from '../helpers/flow-builder';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
const TOKEN = 'ghp_the-persons-own-token';

/** A real API on 127.0.0.1 that answers with the headers it was sent, as echo services do. */
let server: Server;
let base: string;
let seen: IncomingHttpHeaders[];
beforeEach(async () => {
  seen = [];
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ authorization: req.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('flowbench secrets', () => {
  it('keeps a value an HTTP request node reads as {{secrets.name}}: sent, never shown, never in a run', async () => {
    const db = join(tempDir(), 'secrets.db');
    const file = join(tempDir(), 'github.json');
    writeFileSync(
      file,
      JSON.stringify(
        buildFlow({
          id: 'github',
          nodes: [
            input(),
            {
              id: 'me',
              type: 'http',
              config: { url: `${base}/user`, headers: [{ name: 'Authorization', value: 'Bearer {{secrets.github}}' }] },
            },
            output('{{nodes.me.output}}'),
          ],
          edges: ['input>me', 'me>result'],
        }),
      ),
    );
    // An imported file sending a secret says so, and runs only once the person dismissed that (from the CLI too).
    const imported = await runJson<{ problems: { nodeId?: string; message: string }[] }>(['--db', db, 'import', file]);
    expect(imported.problems.map((p) => p.message)).toEqual([
      `node me: calls GET ${base}/user, sending your secret github, when it runs, as the file's author chose: dismiss this in the Problems tab (or \`flowbench dismiss\`) once you trust it`,
    ]);
    const dismissed = await runCli(['--db', db, 'dismiss', 'github', 'me']);
    expect(dismissed.stdout).toContain('dismissed: node me: calls GET');
    expect(dismissed.stdout).toContain('flow "Test flow" has no errors left');

    // Said before a run: the editor's Problems tab and `validate` warn of a secret not set here.
    const warned = await runCli(['--db', db, 'validate', 'github']);
    expect(warned.stdout).toContain('SECRET_NOT_SET');
    expect(warned.stdout).toContain(
      'node "me" headers.0.value: {{secrets.github}} is not set here, so runs will not start: set it on the Secrets page or with `flowbench secrets set github`',
    );
    // The list says what flows read that is not set here, and how to set it.
    expect(await runJson(['--db', db, 'secrets', 'list'])).toEqual({
      secrets: [],
      wanted: [{ name: 'github', readBy: ['Test flow'] }],
    });
    expect((await runCli(['--db', db, 'secrets', 'list'])).stdout).toContain(
      'github  not set here; read by Test flow: flowbench secrets set github',
    );
    const unset = await runCli(['--db', db, 'run', 'github']);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain(
      'error [SECRET_MISSING]: flow "Test flow" reads {{secrets.github}}, which is not set here: set it on the Secrets page or with `flowbench secrets set <name>`',
    );
    expect(seen).toHaveLength(0);

    const saved = await runCli(['--db', db, 'secrets', 'set', 'github'], {}, `${TOKEN}\n`);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('saved the secret github: kept');
    expect(await runJson(['--db', db, 'secrets', 'list'])).toEqual({
      secrets: [
        { name: 'github', store: expect.stringMatching(/^(keychain|plain-text)$/) as unknown, readBy: ['Test flow'] },
      ],
      wanted: [],
    });
    const listed = (await runCli(['--db', db, 'secrets', 'list'])).stdout;
    expect(listed).not.toContain(TOKEN);
    expect(listed).toContain('; read by Test flow');

    expect((await runCli(['--db', db, 'validate', 'github'])).stdout).not.toContain('SECRET_NOT_SET');
    const run = await runJson<{ id: string }>(['--db', db, 'run', 'github']);
    expect(seen[0]?.authorization).toBe(`Bearer ${TOKEN}`);
    const record = await runCli(['--db', db, 'runs', 'show', run.id, '--json']);
    expect(record.stdout).not.toContain(TOKEN);
    expect(JSON.parse(record.stdout)).toMatchObject({
      status: 'succeeded',
      steps: expect.arrayContaining([
        expect.objectContaining({
          nodeId: 'me',
          input: expect.objectContaining({ headers: { Authorization: '•••' } }) as unknown,
          output: { authorization: 'Bearer •••' },
        }),
      ]) as unknown,
    });
    // Only the vault's own entry holds it (in plain text where no keychain answers, as `secrets list` says).
    const stored = readFileSync(db).toString('latin1');
    expect(stored.split(TOKEN).length - 1).toBeLessThanOrEqual(1);

    // A new value from the environment replaces the old one; removing it makes runs refuse again.
    await runJson(['--db', db, 'secrets', 'set', 'github', '--from-env', 'GH_TOKEN'], { GH_TOKEN: 'second-token' });
    await runJson(['--db', db, 'run', 'github']);
    expect(seen[1]?.authorization).toBe('Bearer second-token');
    // Removing says which flows it stops, before a run says it.
    expect(await runJson(['--db', db, 'secrets', 'remove', 'github'])).toEqual({
      removed: 'github',
      readBy: ['Test flow'],
    });
    expect((await runCli(['--db', db, 'run', 'github'])).stderr).toContain('[SECRET_MISSING]');
    await runJson(['--db', db, 'secrets', 'set', 'unused', '--from-env', 'GH_TOKEN'], { GH_TOKEN: 'x-token' });
    expect((await runCli(['--db', db, 'secrets', 'list'])).stdout).toContain('unused  kept');
    expect((await runCli(['--db', db, 'secrets', 'remove', 'unused'])).stdout).toBe(
      'removed the secret unused; no flow reads it\n',
    );
  });

  it('says, as it saves it, that a value under 4 characters is recorded in runs as it is', async () => {
    const db = join(tempDir(), 'short.db');
    const saved = await runCli(['--db', db, 'secrets', 'set', 'pin'], {}, '123\n');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain(
      'note: its value is shorter than 4 characters: runs record it as it is, not as ••• (hiding it would hide that text everywhere in a run)',
    );
    expect(await runJson(['--db', db, 'secrets', 'set', 'pin', '--from-env', 'PIN'], { PIN: '1234' })).toEqual({
      name: 'pin',
      store: expect.stringMatching(/^(keychain|plain-text)$/) as unknown,
    });
    expect(
      (await runJson<{ note?: string }>(['--db', db, 'secrets', 'set', 'pin', '--from-env', 'PIN'], { PIN: '12' }))
        .note,
    ).toBe(
      'its value is shorter than 4 characters: runs record it as it is, not as ••• (hiding it would hide that text everywhere in a run)',
    );
  });

  it('refuses bad names, empty values and unknown secrets with a clear message', async () => {
    const db = join(tempDir(), 'refusals.db');
    const badName = await runCli(['--db', db, 'secrets', 'set', 'my key'], {}, 'x');
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('"my key" cannot name a secret: letters, digits, _ and -, at most 64');
    const empty = await runCli(['--db', db, 'secrets', 'set', 'github'], {}, '\n');
    expect(empty.stderr).toContain('no value for the secret github came from standard input');
    const noEnv = await runCli(['--db', db, 'secrets', 'set', 'github', '--from-env', 'NOT_SET_ANYWHERE']);
    expect(noEnv.stderr).toContain('the environment variable NOT_SET_ANYWHERE is not set');
    const unknown = await runCli(['--db', db, 'secrets', 'remove', 'github']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('[SECRET_NOT_FOUND]: no secret is named "github" (secrets: none)');
    expect((await runCli(['--db', db, 'dismiss', 'nothing'])).stderr).toContain('name a node, or give --all');
  });
});
