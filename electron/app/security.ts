// The window security checklist applied to every web contents the app creates: no new windows,
// no navigation away from the app, no webviews, no permissions; links open in the user's
// browser only when they point at one of the app's own web pages.
import type { AppLike, SessionLike, ShellLike } from './electron-api.js';
import { APP_ORIGIN } from './protocols.js';

/** Only what a video editor page needs (fullscreen playback, copying text), only for our pages. */
const ALLOWED_PERMISSIONS = new Set(['fullscreen', 'clipboard-sanitized-write']);
const ours = (url: string | undefined) => !!url && url.startsWith(`${APP_ORIGIN}/`);

/**
 * The web pages the app may open in the browser: the project's own pages named in package.json
 * (`homepage`, `bugs.url`), as https URL prefixes. Nothing else.
 */
export function externalLinkPrefixes(pkg: { homepage?: unknown; bugs?: unknown }): string[] {
  const bugs = typeof pkg.bugs === 'object' && pkg.bugs ? (pkg.bugs as { url?: unknown }).url : pkg.bugs;
  const out: string[] = [];
  for (const candidate of [pkg.homepage, bugs]) {
    if (typeof candidate !== 'string') continue;
    try {
      const u = new URL(candidate);
      if (u.protocol === 'https:' && !u.username && !u.password) out.push(`${u.origin}${u.pathname.replace(/\/+$/, '')}`);
    } catch {
      // not a URL: nothing opens
    }
  }
  return out;
}

/** True when `url` is https, carries no credentials, and lies at or under one of the prefixes. */
export function isExternalAllowed(url: string, prefixes: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return false;
  const page = `${u.origin}${u.pathname}`; // the parser has resolved `..` and the host's case
  return prefixes.some((p) => page === p || page.startsWith(`${p}/`));
}

export function hardenApp(deps: { app: AppLike; shell: ShellLike; externalLinks: () => readonly string[]; log: (message: string) => void }): void {
  const { app, shell } = deps;
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      // Nothing opens inside the app; the project's own pages open in the user's browser.
      if (isExternalAllowed(url, deps.externalLinks())) void shell.openExternal(url).catch((e: Error) => deps.log(`could not open ${url}: ${e.message}`));
      else deps.log(`refused to open ${url.slice(0, 200)}`);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!ours(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!ours(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** Permission handlers of the default session; after app 'ready'. */
export function restrictPermissions(session: SessionLike): void {
  session.setPermissionRequestHandler((wc, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission) && ours(wc.getURL())));
  session.setPermissionCheckHandler((_wc, permission, origin) => ALLOWED_PERMISSIONS.has(permission) && ours(`${origin}/`));
}
