// A voice pack's failed download as a creator reads it (a job's error, the pack's state, a
// refused render): the cause in words, never the system's error (`getaddrinfo ENOTFOUND …`,
// `other side closed`) or the address it was fetching from.
const NO_NETWORK = /\b(ENOTFOUND|EAI_AGAIN|ENETUNREACH|ENETDOWN|getaddrinfo)\b/;
const UNREACHABLE = /\b(ECONNREFUSED|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EPIPE|UND_ERR_[A-Z_]+|fetch failed|other side closed|socket hang up|CERT_[A-Z_]+|certificate)\b/i;

/** The words for a network failure in `message`, or the message itself when it is not one. */
export function voicePackFailure(message: string): string {
  const cause = NO_NETWORK.test(message) ? 'no network connection' : UNREACHABLE.test(message) ? 'the download server could not be reached' : null;
  if (!cause) return message;
  const voice = /^The voice pack of (.+?) could not be installed/.exec(message)?.[1];
  return `The voice pack${voice ? ` of ${voice}` : ''} could not be downloaded: ${cause}. Check the internet connection, then try again.`;
}
