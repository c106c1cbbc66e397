import Database from 'better-sqlite3';

/**
 * Takes the database's write lock from a connection of its own, as another
 * process holding it would, until the function returned is called: that
 * commits the empty transaction and closes the connection.
 */
export function holdWriteLock(path: string): () => void {
  const other = new Database(path);
  other.exec('BEGIN IMMEDIATE');
  return () => {
    other.exec('COMMIT');
    other.close();
  };
}
