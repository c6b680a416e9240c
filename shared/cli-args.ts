// What the command-line tools (npm run server / web) share: a usage error (exit 2 with the
// usage) and whole-number flags with bounds.
export class UsageError extends Error {}

/** A bad flag: ours, or node:util parseArgs's (unknown option, missing value). */
export function isUsageError(err: unknown): boolean {
  return err instanceof UsageError || Boolean((err as { code?: string } | null)?.code?.startsWith('ERR_PARSE_ARGS'));
}

export function int(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}
