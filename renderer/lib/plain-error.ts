// A system's network error in a message (a voice download that failed, a render that could not
// fetch what it needs) said in words a creator can act on; any other message as it is.
const NETWORK = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|getaddrinfo|fetch failed|socket hang up)\b/i;

export function plainError(message: string): string {
  if (!NETWORK.test(message)) return message;
  const download = /download|voice pack/i.test(message);
  return download
    ? 'The voice download failed: the studio could not reach the internet. Check the connection and try again.'
    : 'The studio could not reach the internet for this render. Check the connection and try again.';
}
