// Pauses in a script (extension `sound`): `<break time="500ms"/>` or `<break time="2s"/>`, the
// SSML form creators know. One reading of the tag for the request's validation, the engine's
// narration and the app's editor: the tag is never text (not counted, not captioned, not spoken).

/** The longest pause one tag may ask for, in seconds. */
export const BREAK_MAX_SECONDS = 10;

/** A well-formed tag: `time` in s or ms, quotes either way, the closing slash optional. */
const TAG = /<break\s+time\s*=\s*(["'])(\d+(?:\.\d+)?)\s*(ms|s)\1\s*\/?>/giu;
/** Anything that starts like a tag: a well-formed one, or a mistake to report. */
const OPENING = /<\s*break\b[^>]*>?/giu;

export type ScriptPart = { text: string } | { pause: number };

/** A tag's seconds. */
const seconds = (value: string, unit: string) => (unit.toLowerCase() === 'ms' ? Number(value) / 1000 : Number(value));

/**
 * What is wrong with the script's pauses, one message each (empty: nothing): a tag that is not
 * `<break time="…s|ms"/>`, or a pause over BREAK_MAX_SECONDS.
 */
export function breakProblems(text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(OPENING)) {
    const tag = new RegExp(`^${TAG.source}$`, 'iu').exec(m[0]);
    if (!tag) {
      problems.push(`has a pause written "${m[0].slice(0, 40)}"; write it <break time="2s"/> or <break time="500ms"/>`);
      continue;
    }
    const s = seconds(tag[2]!, tag[3]!);
    if (s > BREAK_MAX_SECONDS) problems.push(`has a pause of ${s} s; a pause may be at most ${BREAK_MAX_SECONDS} s`);
  }
  return problems;
}

/** True when the script holds a pause tag. */
export function hasBreaks(text: string): boolean {
  OPENING.lastIndex = 0;
  return OPENING.test(text);
}

/**
 * The script as text and pauses, in order (pauses in seconds; two in a row are one of both
 * lengths). Text parts keep their spaces; a script without tags is one text part. Malformed tags
 * are left as text (the request's validation refuses them first).
 */
export function scriptParts(text: string): ScriptPart[] {
  const parts: ScriptPart[] = [];
  let at = 0;
  for (const m of text.matchAll(TAG)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index) });
    const pause = seconds(m[2]!, m[3]!);
    const last = parts[parts.length - 1];
    if (last && 'pause' in last) last.pause += pause;
    else parts.push({ pause });
    at = m.index + m[0].length;
  }
  if (at < text.length || !parts.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The script without its pause tags (each one a space): what is counted, detected and read. */
export function withoutBreaks(text: string): string {
  return text.replace(TAG, ' ');
}

/** The seconds of pause the script asks for in all. */
export function breakSeconds(text: string): number {
  return scriptParts(text).reduce((n, p) => n + ('pause' in p ? p.pause : 0), 0);
}

/** The tag for a pause ("2s", "500ms"): whole seconds in s, anything else in ms. */
export function breakTag(pauseSeconds: number): string {
  const ms = Math.round(pauseSeconds * 1000);
  return ms % 1000 === 0 ? `<break time="${ms / 1000}s"/>` : `<break time="${ms}ms"/>`;
}

/** Each tag's place and length in the script (for an editor that draws it as a chip). */
export function breakSpans(text: string): { start: number; end: number; pause: number }[] {
  return [...text.matchAll(TAG)].map((m) => ({ start: m.index, end: m.index + m[0].length, pause: seconds(m[2]!, m[3]!) }));
}
