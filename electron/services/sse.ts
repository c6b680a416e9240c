// A small Server-Sent Events reader over fetch's body stream (the render API's /api/events).
export interface SseMessage {
  event: string;
  data: string;
}

/** The stream said nothing, not even a heartbeat, for longer than the reader waits. */
export class SseStalled extends Error {}

/**
 * The messages of a stream. With `idleMs`, a stream silent that long (a server that hangs
 * keeps its socket open, so no end ever comes) throws SseStalled and is cancelled.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, idleMs?: number): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buf = '';
  let event = 'message';
  let data: string[] = [];
  for await (const chunk of idleMs ? withinIdle(body, idleMs) : (body as unknown as AsyncIterable<Uint8Array>)) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.search(/\r\n|\n|\r/)) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + (buf[nl] === '\r' && buf[nl + 1] === '\n' ? 2 : 1));
      if (line === '') {
        if (data.length) yield { event, data: data.join('\n') };
        event = 'message';
        data = [];
      } else if (!line.startsWith(':')) {
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  }
}

async function* withinIdle(body: ReadableStream<Uint8Array>, idleMs: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SseStalled(`the event stream was silent for ${idleMs} ms`)), idleMs);
      });
      const r = await Promise.race([reader.read(), stalled]).finally(() => clearTimeout(timer));
      if (r.done) return;
      yield r.value;
    }
  } finally {
    // A stalled or abandoned stream: its socket is closed rather than left to the server.
    await reader.cancel().catch(() => {}); // already closed or errored: nothing left to release
  }
}
