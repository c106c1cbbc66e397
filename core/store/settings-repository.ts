import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { FlowbenchError } from '../model/errors';
import type { Db } from './database';
import { settings } from './schema';

/** Typed key/value settings; every value is checked against its schema when read. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  get<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    const row = this.db.select().from(settings).where(eq(settings.key, key)).get();
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

  set(key: string, value: unknown): void {
    this.db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
  }
}
