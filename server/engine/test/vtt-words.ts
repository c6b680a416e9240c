// Reads a WebVTT file with a spec parser (webvtt-parser, after the WHATWG/W3C parsing rules)
// into its cues' words, each with the time it starts: the cue's start for a cue's first word,
// the inline timestamp before it for every other word.
import { createRequire } from 'node:module';
import { WebVTTParser, type Entity, type TreeNode } from 'webvtt-parser';

// The spec's character references are HTML's named ones (`&lt;` with its semicolon); the
// parser's built-in table knows only the legacy forms without it, so it gets the full table
// the package ships.
const HTML_ENTITIES = createRequire(import.meta.url)('webvtt-parser/html-entities.json') as Record<Entity, string>;

export interface VttWord {
  text: string;
  start: number;
  /** True when an inline timestamp gave the time (false: the cue's start). */
  stamped: boolean;
}

export function parseVttWords(vtt: string): { errors: string[]; cues: { start: number; end: number; text: string; words: VttWord[] }[] } {
  const data = new WebVTTParser(HTML_ENTITIES).parse(vtt, 'subtitles');
  const cues = data.cues.map((cue) => {
    const words: VttWord[] = [];
    let at = cue.startTime;
    let stamped = false;
    const visit = (nodes: TreeNode[]) => {
      for (const n of nodes) {
        if (n.type === 'timestamp') {
          at = n.value;
          stamped = true;
        } else if (n.type === 'text') {
          // Text between timestamps: one word, or (after a line break or space) the next word's gap.
          for (const piece of n.value.split(/\s+/)) {
            if (!piece) continue;
            words.push({ text: piece, start: at, stamped });
            stamped = false;
          }
        } else visit(n.children as TreeNode[]);
      }
    };
    visit(cue.tree.children);
    return { start: cue.startTime, end: cue.endTime, text: cue.text, words };
  });
  return { errors: data.errors.map((e) => `${e.line}:${e.col} ${e.message}`), cues };
}

