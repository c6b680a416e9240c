// A tiny fan-out for StudioEvents: handlers emit, transports (IPC, SSE) subscribe.
import type { StudioEvent } from '../../shared/bridge/index.js';

export type EventListener = (event: StudioEvent) => void;

export class EventHub {
  private listeners = new Set<EventListener>();
  emit(event: StudioEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // one broken listener must not starve the others
      }
    }
  }
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get size(): number {
    return this.listeners.size;
  }
}
