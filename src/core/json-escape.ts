/** True for the UTF-16 units JSON writes as a backslash and one letter: `"`, `\`, backspace, form feed, newline, return and tab. */
export function hasShortEscape(unit: number): boolean {
  return (
    unit === 0x22 || unit === 0x5c || unit === 0x08 || unit === 0x0c || unit === 0x0a || unit === 0x0d || unit === 0x09
  );
}
