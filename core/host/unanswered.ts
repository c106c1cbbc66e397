import type { IncomingMessage, ServerResponse } from 'node:http';
import { isOpenEnded } from '../mcp/open-ended';
import { waitAtMost } from '../services/wait';

/**
 * The POST requests (MCP calls, the editor's API calls) not answered yet, so
 * that a host that stops lets their answers go out before it closes its
 * connections: the runs they waited on were cancelled just before, saying
 * why, and a client cut off instead waited out its own time limit (60 s for
 * the SDK clients) to learn nothing. Streams that stay open are not waited
 * for: the editor's events and a 2025 MCP stream are GETs, a 2026-07-28
 * listen stream is marked (open-ended.ts).
 */
export class UnansweredRequests {
  private readonly open = new Set<ServerResponse>();
  private waiters: (() => void)[] = [];

  track(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') return;
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      if (this.waiters.length > 0 && this.isSettled()) for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves once each is answered (or its client went away), or after `waitMs`. */
  async settled(waitMs: number): Promise<void> {
    if (this.isSettled()) return;
    await waitAtMost(new Promise<void>((resolve) => this.waiters.push(resolve)), waitMs);
  }

  /** Nothing to wait for but open-ended requests (a 2026-07-28 listen stream, a POST that stays open). */
  private isSettled(): boolean {
    for (const res of this.open) if (!isOpenEnded(res)) return false;
    return true;
  }
}
