// Longest text and deepest nesting read (a reply is untrusted).
const MAX_CHARS = 100_000;
const MAX_DEPTH = 32;

const WORDS: Readonly<Record<string, unknown>> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
};
const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '/': '/',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

class LooseReader {
  private at = 0;
  constructor(private readonly text: string) {}

  /** The whole text as one value; throws on anything else. */
  document(): unknown {
    const value = this.value(0);
    this.space();
    if (this.at !== this.text.length) throw new Error('text after the value');
    return value;
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error('nested too deep');
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"' || c === "'") return this.string(c);
    const word = /^(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|true|false|null|True|False|None)/.exec(
      this.text.slice(this.at, this.at + 64),
    );
    if (!word) throw new Error(`unexpected ${c ?? 'end'}`);
    this.at += word[0].length;
    return word[0] in WORDS ? WORDS[word[0]] : Number(word[0]);
  }

  private string(quote: string): string {
    let out = '';
    for (this.at++; this.at < this.text.length; this.at++) {
      const c = this.text[this.at]!;
      if (c === quote) {
        this.at++;
        return out;
      }
      if (c !== '\\') out += c;
      else {
        const next = this.text[++this.at] ?? '';
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 1, this.at + 5))) {
          out += String.fromCharCode(parseInt(this.text.slice(this.at + 1, this.at + 5), 16));
          this.at += 4;
        } else out += ESCAPES[next] ?? next;
      }
    }
    throw new Error('unterminated string');
  }

  // Items up to the closing bracket; a comma before it (a trailing comma) is allowed.
  private items(close: string, item: () => void): void {
    this.at++;
    for (;;) {
      this.space();
      if (this.text[this.at] === close) break;
      item();
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== close) throw new Error(`expected , or ${close}`);
    }
    this.at++;
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.items('}', () => {
      const quote = this.text[this.at];
      if (quote !== '"' && quote !== "'") throw new Error('expected a quoted key');
      const key = this.string(quote);
      this.space();
      if (this.text[this.at++] !== ':') throw new Error('expected :');
      Object.defineProperty(out, key, {
        value: this.value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return out;
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.items(']', () => out.push(this.value(depth + 1)));
    return out;
  }
}

/**
 * Reads JSON as small models write it, without evaluating anything: strict JSON, plus strings and
 * keys in single quotes, Python's True/False/None and trailing commas. Undefined when the text is
 * none of these or longer than 100,000 characters.
 */
export function parseLooseJson(text: string): unknown {
  if (text.length > MAX_CHARS) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    try {
      return new LooseReader(text).document();
    } catch {
      return undefined;
    }
  }
}
