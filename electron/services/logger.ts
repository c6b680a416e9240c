// Where the privileged side reports what went wrong without failing the call (a cache not
// written, a background flush refused): the desktop passes its log file (app-log.ts), the web
// shell its own log. Messages must not carry keys; the desktop's log redacts them anyway.
export interface Logger {
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** The short form of a failure for a log line (the stack is the log's business). */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A Logger over a function that writes one line (the web shell's log). */
export function lineLogger(write: (line: string) => void): Logger {
  return {
    warn: (m) => write(`warn: ${m}`),
    error: (m, e) => write(`error: ${e === undefined ? m : `${m}: ${reason(e)}`}`),
  };
}
