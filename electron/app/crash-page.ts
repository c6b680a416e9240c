// The page shown when the window's renderer crashed again right after a reload: it says what
// happened, that nothing was lost, and offers to reload the app. Served by studio-app:// (same
// origin, same CSP: no script, the link is a plain navigation within the app).
export const CRASH_PAGE_PATH = '/crashed.html';

export function crashPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Presenter Studio</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:34em;margin:15vh auto;padding:0 1.5em;color:#222}a{color:#2456c7}</style></head>
<body><h1>The window stopped working</h1>
<p>Presenter Studio's window closed unexpectedly twice in a row. Your drafts and queued renders are saved, and renders in the local studio go on.</p>
<p><a href="index.html">Reload Presenter Studio</a></p>
<p>If this keeps happening, Help → Show Logs opens the log folder; the file <code>main.log</code> says what went wrong.</p>
</body></html>
`;
}
