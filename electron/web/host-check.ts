// DNS rebinding guard: a page on evil.example whose name is made to resolve to 127.0.0.1 reaches
// this shell with "Host: evil.example". Only requests naming one of the shell's own host names
// are answered; a deployment adds its public name (--allowed-host / WEB_ALLOWED_HOSTS).
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const ANY_ADDRESS = new Set(['0.0.0.0', '[::]']);

function normalise(name: string): string {
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  return n.includes(':') && !n.startsWith('[') ? `[${n}]` : n; // a bare IPv6 address
}

/** The host names to answer to: loopback names, the bound address (unless a wildcard) and extras. */
export function allowedHostnames(boundHost: string, extra: readonly string[] = []): Set<string> {
  const names = new Set([...LOOPBACK, ...extra.map(normalise).filter(Boolean)]);
  const bound = normalise(boundHost);
  if (!ANY_ADDRESS.has(bound)) names.add(bound);
  return names;
}

/** The host name of a Host header ("name", "name:port", "[v6]:port"), lower case; null when malformed. */
export function hostnameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(hostHeader.trim());
  return m ? normalise(m[1]!) : null;
}

export function hostAllowed(hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  const name = hostnameOf(hostHeader);
  return name !== null && allowed.has(name);
}
