// Anonymous users of the web shell: each browser gets a random user id in a signed, HttpOnly
// cookie; the id goes to the render API as X-User-Id next to the server's service key. Over
// HTTPS the cookie is Secure and named with the __Host- prefix (no Domain, Path=/, only from a
// secure origin), so a sibling subdomain or a plain-HTTP page cannot plant or overwrite it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const USER_COOKIE = 'ps_uid';
export const SECURE_USER_COOKIE = `__Host-${USER_COOKIE}`;

export class UserCookies {
  constructor(private readonly secret: Buffer) {}

  private sign(id: string): string {
    return createHmac('sha256', this.secret).update(id).digest('base64url');
  }

  /** The user id from a Cookie header, or null when absent or not signed by us. */
  read(cookieHeader: string | undefined): string | null {
    for (const part of (cookieHeader ?? '').split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name !== USER_COOKIE && name !== SECURE_USER_COOKIE) continue;
      const [id, sig] = rest.join('=').split('.');
      if (!id || !sig || !/^web-[0-9a-f]{24}$/.test(id)) continue;
      const want = Buffer.from(this.sign(id));
      const got = Buffer.from(sig);
      if (want.length === got.length && timingSafeEqual(want, got)) return id;
    }
    return null;
  }

  issue(secure: boolean): { id: string; header: string } {
    const id = `web-${randomBytes(12).toString('hex')}`;
    const header = `${secure ? SECURE_USER_COOKIE : USER_COOKIE}=${id}.${this.sign(id)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000${secure ? '; Secure' : ''}`;
    return { id, header };
  }
}
