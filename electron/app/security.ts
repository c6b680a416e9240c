// The window security checklist applied to every web contents the app creates: no new windows,
// no navigation away from the app, no webviews, no permissions.
import { app, session, shell } from 'electron';
import { APP_ORIGIN } from './protocols.js';

export function hardenApp(): void {
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      // Links to the web open in the user's browser; nothing opens inside the app.
      if (/^https:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  // Only what a video editor page needs (fullscreen playback, copying text), only for our pages.
  const allowed = new Set(['fullscreen', 'clipboard-sanitized-write']);
  const ours = (url: string | undefined) => !!url && url.startsWith(`${APP_ORIGIN}/`);
  app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((wc, permission, callback) => callback(allowed.has(permission) && ours(wc.getURL())));
    session.defaultSession.setPermissionCheckHandler((_wc, permission, origin) => allowed.has(permission) && ours(`${origin}/`));
  });
}
