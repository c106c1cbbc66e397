import type { IncomingMessage, ServerResponse } from 'node:http';
import { waitAtMost } from '../services/wait';

/**
 * The POST requests (MCP calls, the editor's API calls) not answered yet, so
 * that a host that stops lets their answers go out before it closes its
 * connections: the runs they waited on were cancelled just before, saying
 * why, and a client cut off instead waited out its own time limit (60 s for
 * the SDK clients) to learn nothing. Streams that stay open (an MCP listen
 * stream, the editor's events) are GETs, not waited for.
 */
export class UnansweredRequests {
  private count = 0;
  private waiters: (() => void)[] = [];

  track(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') return;
    this.count++;
    res.once('close', () => {
      if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves once each is answered (or its client went away), or after `waitMs`. */
  async settled(waitMs: number): Promise<void> {
    if (this.count === 0) return;
    await waitAtMost(new Promise<void>((resolve) => this.waiters.push(resolve)), waitMs);
  }
}
