// A small SSE reader for tests: collects `job` events and comments from GET /api/events.
import { createParser } from 'eventsource-parser';
import type { Job } from '../../shared/contract/index.js';

export interface EventStream {
  status: number;
  contentType: string | null;
  jobs: Job[];
  comments: string[];
  close(): void;
}

export async function openEvents(base: string, headers: Record<string, string>): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers, signal: controller.signal });
  const stream: EventStream = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    jobs: [],
    comments: [],
    close: () => controller.abort(),
  };
  if (res.status !== 200 || !res.body) {
    await res.text().catch(() => undefined);
    return stream;
  }
  const parser = createParser({
    onEvent: (e) => {
      if (e.event === 'job') stream.jobs.push(JSON.parse(e.data) as Job);
    },
    onComment: (c) => stream.comments.push(c.trim()),
  });
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted by close()
    }
  })();
  return stream;
}
