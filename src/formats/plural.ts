/** A count with its noun, digits always: `0 epochs`, `1 epoch`, `2 epochs` (the plural is the singular plus `s` unless given). */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
