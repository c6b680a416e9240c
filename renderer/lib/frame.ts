// Coalesces bursts (job events, pointer moves) into one callback per animation frame.
export function frameBatcher<T>(flush: (items: T[]) => void): { push(item: T): void; cancel(): void } {
  let items: T[] = [];
  let handle = 0;
  const run = () => {
    handle = 0;
    const batch = items;
    items = [];
    flush(batch);
  };
  return {
    push(item) {
      items.push(item);
      if (!handle) handle = requestAnimationFrame(run);
    },
    cancel() {
      if (handle) cancelAnimationFrame(handle);
      handle = 0;
      items = [];
    },
  };
}
