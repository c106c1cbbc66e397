import type { FindMatch, FindOptions } from '../../../core/editing/find';
import type { Replacement, ReplaceOptions } from '../../../core/editing/replace';
import type { Flow } from '../../../core/model/flow';
import { flowDelta } from '../../../core/editing/flow-delta';
import { doPatternWork, type PatternRequest, type PatternResponse, type PatternWork } from './pattern-requests';

/**
 * How long a regular expression may take over a flow before Find gives up on
 * it. A search of a 10,000-node flow takes well under a second; one that
 * backtracks without end (`(a+)+$`, `(\w+\s?)*:` on a long prompt) would take
 * minutes or years, and on the page's thread it would freeze the editor.
 */
export const PATTERN_LIMIT_MS = 2_000;

/** The expression took longer than PATTERN_LIMIT_MS over this flow: its search was ended. */
export class SlowPatternError extends Error {
  constructor() {
    super(
      `This expression took over ${PATTERN_LIMIT_MS / 1000} s on this flow's text, so its search was stopped. ` +
        'Nested repeats such as (a+)+ or (\\w+\\s?)* can try every way to split a long text: make it simpler.',
    );
  }
}

/** A newer search came before this one started: its answer would be for words no longer in the field. */
export class SupersededError extends Error {}

interface Job {
  work: PatternWork;
  /** Searches of one asker (see `find`): a newer one drops this one while it waits. */
  asker?: string;
  flow: Flow;
  resolve: (value: FindMatch[] | Replacement) => void;
  reject: (error: Error) => void;
}

/**
 * Runs Find's and Replace's work: a regular expression in a worker, one at a
 * time, ending the worker when one takes longer than PATTERN_LIMIT_MS (the
 * next request starts a new one); words as typed at once on the page, as they
 * cannot backtrack. The flow is copied to a new worker whole; after that
 * only what changed in it goes (core/editing/flow-delta.ts), and nothing
 * while it is the same: typing in Find sends it once, an edit of a node sends
 * that node. Where no worker can start (its script cannot load), the work
 * runs on the page, as before.
 */
export class PatternRunner {
  private worker: Worker | undefined;
  private noWorker = false;
  private sentFlow: Flow | undefined;
  private queue: Job[] = [];
  private running: (Job & { id: number; timer: ReturnType<typeof setTimeout> }) | undefined;
  private lastId = 0;
  /** Find closed while work was left: the worker goes once it is done. */
  private releasing = false;

  constructor(private readonly startWorker: () => Worker) {}

  /** No worker could start here: regular expressions run on the page, with no time limit (Find says so). */
  get isUnguarded(): boolean {
    return this.noWorker;
  }

  /**
   * The nodes and notes the words are in (findInFlow). With an `asker` that
   * only wants its latest answer (Find's field as the person types), its
   * search still waiting is dropped: SupersededError.
   */
  find(flow: Flow, words: string, options: FindOptions, asker?: string): Promise<FindMatch[]> {
    if (asker !== undefined) {
      for (const job of this.queue) if (job.asker === asker) job.reject(new SupersededError());
      this.queue = this.queue.filter((job) => job.asker !== asker);
    }
    return this.enqueue({ flow, work: { op: 'find', words, options }, asker }) as Promise<FindMatch[]>;
  }

  /**
   * Find is closed: the worker and its copy of the flow (tens of megabytes
   * for a big flow) go, once the work asked for is done (a Replace all
   * clicked just before still happens). The next search starts a new one.
   */
  release(): void {
    this.releasing = true;
    if (!this.running && this.queue.length === 0) this.stopWorker();
  }

  /** The replacement (replaceInFlow), computed on `flow`. */
  replace(flow: Flow, words: string, replacement: string, options: ReplaceOptions): Promise<Replacement> {
    return this.enqueue({ flow, work: { op: 'replace', words, replacement, options } }) as Promise<Replacement>;
  }

  private enqueue(job: Omit<Job, 'resolve' | 'reject'>): Promise<FindMatch[] | Replacement> {
    return new Promise((resolve, reject) => {
      if (!job.work.options.regex) return this.runHere({ ...job, resolve, reject });
      // Asked again: Find is open.
      this.releasing = false;
      this.queue.push({ ...job, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      if (this.releasing) this.stopWorker();
      return;
    }
    const worker = this.workerOrNone();
    if (!worker) {
      this.runHere(job);
      return this.next();
    }
    const id = ++this.lastId;
    const request: PatternRequest = { ...job.work, id, ...this.flowToSend(job.flow) };
    this.sentFlow = job.flow;
    this.running = { ...job, id, timer: setTimeout(() => this.giveUp(), PATTERN_LIMIT_MS) };
    worker.postMessage(request);
  }

  /** The flow, or what changed in it, for a worker that holds `sentFlow` (nothing when it is the same). */
  private flowToSend(flow: Flow): Pick<PatternRequest, 'flow' | 'delta'> {
    if (flow === this.sentFlow) return {};
    return this.sentFlow ? { delta: flowDelta(this.sentFlow, flow) } : { flow };
  }

  private workerOrNone(): Worker | undefined {
    if (this.worker || this.noWorker) return this.worker;
    try {
      const worker = this.startWorker();
      worker.onmessage = (event: MessageEvent<PatternResponse>) => this.answered(event.data);
      // The script did not load (the host stopped, a build without it): the page does the work.
      worker.onerror = (event) => {
        event.preventDefault();
        this.noWorker = true;
        this.stopWorker();
        const job = this.running;
        if (!job) return;
        clearTimeout(job.timer);
        this.running = undefined;
        this.runHere(job);
        this.next();
      };
      this.worker = worker;
    } catch {
      this.noWorker = true;
    }
    return this.worker;
  }

  private answered(response: PatternResponse): void {
    const job = this.running;
    if (!job || response.id !== job.id) return;
    clearTimeout(job.timer);
    this.running = undefined;
    if ('error' in response) job.reject(new Error(response.error));
    else job.resolve(response.value);
    this.next();
  }

  /** The expression runs on: the worker is ended with it, and the next request gets a new one. */
  private giveUp(): void {
    const job = this.running;
    this.running = undefined;
    this.stopWorker();
    job?.reject(new SlowPatternError());
    this.next();
  }

  private stopWorker(): void {
    this.releasing = false;
    this.worker?.terminate();
    this.worker = undefined;
    this.sentFlow = undefined;
  }

  private runHere(job: Job): void {
    try {
      job.resolve(doPatternWork(job.flow, job.work));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** The editor's runner; its worker starts at the first regular expression searched. */
export const patternRunner = new PatternRunner(
  () => new Worker(new URL('./pattern-worker.ts', import.meta.url), { type: 'module' }),
);
