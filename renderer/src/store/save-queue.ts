import type { ChangeSet } from '../../../core/model/change-set';

/** The longest an edit waits before it is sent to the host. */
export const AUTOSAVE_DELAY_MS = 300;
/** How soon an edit that could not be saved (host gone, database locked) is tried again; doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 10_000;

interface Pending {
  changes: ChangeSet;
  /** Consecutive edits with the same key (typing in one field) replace each other. */
  coalesceKey: string | undefined;
}

/**
 * Edits waiting to be saved, in order. They are sent one after another (each
 * names the node revisions it was based on), at most AUTOSAVE_DELAY_MS after
 * the last edit. An edit leaves the queue only once the host has it, and
 * `onChange` hears of every change to what is waiting, so the editor can
 * keep it where a reload finds it.
 */
export class SaveQueue {
  private pending: Pending[] = [];
  /** The edit being sent: typing on must not fold into it. */
  private inFlight: Pending | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private retryDelayMs = RETRY_FIRST_MS;

  /** `send` answers 'retry' when the edit could not be saved for now: it stays queued, first in line. */
  constructor(
    private readonly send: (changes: ChangeSet) => Promise<'sent' | 'retry'>,
    private readonly onChange: (waiting: readonly ChangeSet[]) => void = () => undefined,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  push(changes: ChangeSet, coalesceKey?: string): void {
    const last = this.pending.at(-1);
    if (coalesceKey !== undefined && last?.coalesceKey === coalesceKey && last !== this.inFlight) {
      // What the first of them started from: the host has not seen the ones in between.
      const { notesBase, fieldsBase } = last.changes;
      const firstBases = new Map(last.changes.updateNodes.map((update) => [update.id, update.base]));
      last.changes = {
        ...changes,
        ...(notesBase && changes.notesBase ? { notesBase } : {}),
        ...(fieldsBase && changes.fieldsBase ? { fieldsBase: { ...changes.fieldsBase, ...fieldsBase } } : {}),
        updateNodes: changes.updateNodes.map((update) => {
          const first = firstBases.get(update.id);
          return first && update.base ? { ...update, base: { ...update.base, ...first } } : update;
        }),
      };
    } else this.pending.push({ changes, coalesceKey });
    this.changed();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), AUTOSAVE_DELAY_MS);
  }

  /** Sends everything now (before leaving the editor, or when a test asks). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    if (this.running) await this.running;
    this.running = (async () => {
      while (this.pending.length > 0) {
        const next = this.pending[0] as Pending;
        this.inFlight = next;
        const outcome = await this.send(next.changes);
        this.inFlight = undefined;
        if (outcome === 'sent') {
          if (this.pending[0] === next) this.pending.shift();
          this.changed();
          this.retryDelayMs = RETRY_FIRST_MS;
          continue;
        }
        // Kept, never dropped: tried again later, longer and longer apart.
        this.timer = setTimeout(() => void this.flush(), this.retryDelayMs);
        this.retryDelayMs = Math.min(this.retryDelayMs * 2, RETRY_MAX_MS);
        return;
      }
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** Drops what is waiting, and gives it back: it was refused for good, and the editor shows what it held. */
  clear(): ChangeSet[] {
    const dropped = this.pending.map((p) => p.changes);
    this.forget();
    this.changed();
    return dropped;
  }

  /** Lets go of what is waiting without telling `onChange`: its copy kept for a reload stays. */
  forget(): void {
    clearTimeout(this.timer);
    this.pending = [];
  }

  private changed(): void {
    this.onChange(this.pending.map((p) => p.changes));
  }
}
