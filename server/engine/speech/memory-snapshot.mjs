// A WebAssembly memory saved so that every call can start from it again (the voices carry state
// from one text to the next). Most of such a memory is zero (free heap, room made for audio): the
// copy keeps only the pages that hold something, so a loaded voice costs its memory once, not twice.
// Plain JavaScript: the speech workers load it as it is.

/** The unit the zero pages are found in (WebAssembly's own page is 64 KiB; this is finer). */
const PAGE = 4096;

/** The bytes as they are now: their length and the runs of pages that are not all zero. */
export function saveMemory(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  const perPage = PAGE >> 2;
  const runs = [];
  let start = -1;
  const close = (end) => {
    if (start >= 0) runs.push({ at: start, data: bytes.slice(start, end) });
    start = -1;
  };
  for (let page = 0; page < bytes.byteLength; page += PAGE) {
    const from = page >> 2;
    const to = Math.min(words.length, from + perPage);
    let used = false;
    for (let i = from; i < to && !used; i++) used = words[i] !== 0;
    // The bytes past the last whole word (a length not a multiple of 4) count as used.
    if (!used && to === words.length && bytes.byteLength > to << 2) used = true;
    if (used && start < 0) start = page;
    else if (!used) close(page);
  }
  close(bytes.byteLength);
  return { length: bytes.byteLength, runs };
}

/** Puts the saved bytes back; everything else (the gaps between runs, memory grown since) is zeroed. */
export function restoreMemory(bytes, saved) {
  let at = 0;
  for (const run of saved.runs) {
    bytes.fill(0, at, run.at);
    bytes.set(run.data, run.at);
    at = run.at + run.data.length;
  }
  bytes.fill(0, at);
}

/** How many bytes the copy holds. */
export const savedBytes = (saved) => saved.runs.reduce((n, r) => n + r.data.length, 0);
