// What reaches the terminal: text from data (class names, run ids, zip entry names, model ids, an
// environment's own output quoted in an error) may hold control characters that a terminal would
// act on (ESC sequences, BEL, a carriage return that overwrites a printed line). Every line the
// command line prints passes through `terminalSafe` once, in `runCli`.

// Control characters (C0, DEL and C1: U+0000-U+001F, U+007F-U+009F, CSI among them) but tab and newline.
const CONTROL = /[^\P{Cc}\t\n]/gu;

/**
 * The text with every control character but tab and newline written as a visible `\uXXXX`
 * escape: plain text shows what was there, and inside a JSON string the escape reads back as the
 * same character, so `--json` output stays valid and exact.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
