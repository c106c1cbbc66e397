import Database from 'better-sqlite3';

/** Every row of every table, to prove an operation left the database as it was. */
export function dumpDatabase(path: string): Record<string, unknown[]> {
  const sqlite = new Database(path, { readonly: true });
  try {
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(tables.map((t) => [t, sqlite.prepare(`SELECT * FROM "${t}"`).all()]));
  } finally {
    sqlite.close();
  }
}
