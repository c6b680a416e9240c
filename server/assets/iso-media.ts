// ISO base media files (MP4, MOV, M4A) hold their top-level boxes back to back, each with its
// length. A cut-off file has a last box (usually `mdat`, the media data) that runs past the end:
// ffprobe reads such a file without complaint when its index comes first, so this tells.
import { open } from 'node:fs/promises';

/** Whether every top-level box ends within the file (false: the file was cut off). */
export async function isoBoxesComplete(path: string): Promise<boolean> {
  const f = await open(path, 'r');
  try {
    const { size } = await f.stat();
    const head = Buffer.alloc(16);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await f.read(head, 0, 16, at);
      if (bytesRead < 8) return false;
      let box = head.readUInt32BE(0);
      if (box === 1) {
        if (bytesRead < 16) return false;
        box = Number(head.readBigUInt64BE(8)); // a 64-bit size follows the type
      } else if (box === 0) {
        return true; // the last box runs to the end of the file by definition
      }
      if (box < 8) return false;
      at += box;
    }
    return at === size;
  } finally {
    await f.close();
  }
}
