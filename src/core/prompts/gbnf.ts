// GBNF building blocks (llama.cpp's grammar format, which wllama, llama.cpp's server, web-llm's
// xgrammar and vLLM's xgrammar backend all read). Only the common subset is written: literals,
// character classes with hex escapes, groups, `?`, bounded `{m,n}` repeats and rule names of
// letters and digits. See docs/method.md section 4, "Constrained decoding".

/** A GBNF string literal that matches `text` exactly: `"` and `\` escaped, anything outside printable ASCII as a code-point escape. */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      throw new RangeError(
        `a grammar literal cannot hold the lone surrogate U+${code.toString(16).toUpperCase()}; JSON-encode the text first`,
      );
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else
      out += code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/**
 * A GBNF literal matching `value` as compact JSON (`JSON.stringify`, with `<` written `\u003c`
 * so no tag such as `</tool_call>` can appear inside it); null for what JSON cannot write.
 */
export function jsonLiteral(value: unknown): string | null {
  const json = JSON.stringify(value);
  return typeof json === 'string' ? gbnfLiteral(json.replace(/</g, '\\u003c')) : null;
}

/** `item` repeated between `min` and `max` times (whole numbers, 0 ≤ min ≤ max). */
export function repeat(item: string, min: number, max: number): string {
  return `${item}{${min},${max}}`;
}

/** Collects named rules; identical bodies share one rule, so a grammar stays linear in its input. */
export class GbnfBuilder {
  private readonly rules = new Map<string, string>();
  private readonly names = new Map<string, string>();

  /** Defines a rule under a fixed name (letters and digits) and returns the name. */
  define(name: string, body: string): string {
    if (!/^[a-z][a-z0-9]*$/i.test(name))
      throw new RangeError(`rule name ${JSON.stringify(name)} must be letters and digits`);
    if (this.rules.has(name)) throw new RangeError(`rule ${name} is defined twice`);
    this.rules.set(name, body);
    this.names.set(body, name);
    return name;
  }

  /** A rule with `body`, reusing an existing rule of the same body; its name is `prefix` and a number. */
  rule(body: string, prefix = 'r'): string {
    const known = this.names.get(body);
    if (known !== undefined) return known;
    return this.define(`${prefix}${this.rules.size}`, body);
  }

  /** The grammar text: the `root` rule first, then the others in the order they were made. */
  text(root: string): string {
    return [`root ::= ${root}`, ...[...this.rules].map(([name, body]) => `${name} ::= ${body}`)].join('\n') + '\n';
  }
}
