import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './core/store/schema/index.ts',
  out: './resources/migrations',
});
