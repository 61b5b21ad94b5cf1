// JSON output: 64-bit values beyond 2^53 − 1 are written as decimal strings.

export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
}
