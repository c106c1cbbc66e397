import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FLOW_FILE_EXTENSIONS } from '../../electron/desktop/flow-files';
import { ROOT } from '../helpers/cli';

/**
 * electron-builder cannot run here (it downloads Electron), so this checks
 * the packaging config against the code it packages: what the app loads at
 * run time is in `files`, the addons are unpacked, the icon is big enough to
 * make every platform's icon from, and the file association opens what the
 * app imports.
 */
interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  icon: string;
  fileAssociations: { ext: string[] }[];
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
  electronFuses: Record<string, boolean>;
}
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

describe('packaging (electron-builder.yml)', () => {
  it('builds AppImage and deb, dmg, and an NSIS installer', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('packs what the app loads at run time, with the native addons unpacked', () => {
    for (const needed of [
      'out/main/**',
      'out/preload/**',
      'out/renderer/**',
      'out/worker/**',
      'out/cli/**',
      'bin/**',
    ]) {
      expect(config.files).toContain(needed);
    }
    // The stdio entry runs from real files: the CLI and the addon with what loads it.
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        'node_modules/better-sqlite3/**',
        'node_modules/bindings/**',
        'node_modules/file-uri-to-path/**',
        'bin/**',
        'out/cli/**',
      ]),
    );
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      main: string;
      scripts: Record<string, string>;
    };
    expect(pkg.main).toBe('out/main/index.js');
    // The CLI, worker and views' script are built afresh (none left from older builds) before they are packed.
    expect(pkg.scripts.dist).toMatch(/^node scripts\/build-node\.mjs --clean && .*electron-builder$/);
  });

  it('packs, as real files, every file the code finds beside itself (the list comes from the code)', () => {
    // `new URL('../../<path>', import.meta.url)`: from core/<area>/x.ts, out/cli/ and out/main/ alike,
    // the app's root. The main process reads it from the archive, the CLI (unpacked) from real files.
    const found = new Set<string>();
    for (const file of readdirSync(join(ROOT, 'core'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = readFileSync(join(ROOT, 'core', file), 'utf8');
      for (const match of text.matchAll(/new URL\('\.\.\/\.\.\/([^']+)', import\.meta\.url\)/g)) found.add(match[1]!);
    }
    // The run writer's worker, the migrations, the views' script and the editor's page among them.
    expect([...found]).toEqual(
      expect.arrayContaining([
        'out/worker/run-writer.worker.mjs',
        'resources/migrations',
        'out/views/view-app.js',
        'out/renderer',
      ]),
    );
    const covered = (globs: string[], path: string) =>
      globs.some((glob) => glob === path || (glob.endsWith('/**') && `${path}/`.startsWith(glob.slice(0, -2))));
    expect([...found].filter((path) => !covered(config.files, path))).toEqual([]);
    expect([...found].filter((path) => !covered(config.asarUnpack, path))).toEqual([]);
  });

  it('has an icon of at least 512 px, and associates the flow files the app opens', () => {
    const png = readFileSync(join(ROOT, config.icon));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
    expect(config.fileAssociations[0]?.ext).toEqual([...FLOW_FILE_EXTENSIONS]);
  });

  it("sets Electron's fuses as docs/desktop-security.md says, keeping RunAsNode for the stdio entry", () => {
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});
