import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Services } from '../services/open-services';

/** A secret generated on first use and kept in settings, so it outlives restarts of the same database. */
function keptToken(services: Services, key: string): string {
  const existing = services.settings.get(key, z.string().min(24).optional(), undefined);
  if (existing) return existing;
  const token = randomBytes(24).toString('base64url');
  services.settings.set(key, token);
  return token;
}

/** The bearer token of the MCP endpoint. */
export const httpToken = (services: Services): string => keptToken(services, 'mcp.httpToken');

/**
 * The editor's session token: kept like the MCP token, so a tab stays valid
 * when `serve` restarts on the same database, and reconnects by itself.
 */
export const editorSessionToken = (services: Services): string => keptToken(services, 'editor.sessionToken');
