import type { RunEvent, RunEventListener } from '../model/run';

/** A typed fan-out of run events. A failing listener never breaks the run or other listeners. */
export class EventBus {
  private readonly listeners = new Set<RunEventListener>();

  subscribe(listener: RunEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: RunEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error(`a run event listener failed on ${event.type}:`, error);
      }
    }
  }
}
