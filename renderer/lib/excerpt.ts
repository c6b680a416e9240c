// A script's first words as a job's title where it has no name: the words as the video speaks
// and shows them (a script pasted with Markdown was titled "## Launch day … - **Faster**…").
import { spokenScript } from '../../shared/scene/index.js';

/** The script's words on one line, without Markdown marks, cut after `max` characters with "…". */
export function scriptExcerpt(text: string, max: number): string {
  // spokenScript marks a line's end with a lone "."; a title needs no such mark.
  const words = spokenScript(text)
    .split(/\s+/u)
    .filter((w) => w && w !== '.')
    .join(' ');
  return words.length > max ? `${words.slice(0, max).trimEnd()}…` : words;
}
