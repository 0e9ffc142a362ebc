const MAX_BODY_CHARS = 16_000_000;

/** Splits a Server-Sent Events byte stream, cut anywhere, into the `data` payloads of its events (WHATWG rules: LF, CR or CRLF line ends, `:` comments, multi-line data, unknown fields ignored). */
export class SseDecoder {
  private readonly utf8 = new TextDecoder();
  private partial = '';
  private data: string[] = [];
  private skipLf = false;
  private raw: string | null = '';

  /** The whole text decoded so far while no event has been found (for servers that answer plain JSON); null after the first event or past 16 M characters. */
  get body(): string | null {
    return this.raw;
  }

  /** Feeds the next piece of the stream; returns the payloads of the events it completes. */
  push(chunk: Uint8Array | string): string[] {
    return this.feed(typeof chunk === 'string' ? chunk : this.utf8.decode(chunk, { stream: true }));
  }

  /** Ends the stream; returns the payload of a last event that had no blank line after it. */
  end(): string[] {
    const out = this.feed(this.utf8.decode());
    if (this.partial) this.line(this.partial, out);
    this.partial = '';
    this.line('', out);
    return out;
  }

  private feed(text: string): string[] {
    if (this.raw !== null) this.raw = this.raw.length + text.length > MAX_BODY_CHARS ? null : this.raw + text;
    const out: string[] = [];
    if (text === '') return out;
    let start = this.skipLf && text.startsWith('\n') ? 1 : 0;
    this.skipLf = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.partial + text.slice(start, i), out);
      this.partial = '';
      if (c === '\r') {
        if (i + 1 === text.length) this.skipLf = true;
        else if (text[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    this.partial += text.slice(start);
    return out;
  }

  private line(line: string, out: string[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        out.push(this.data.join('\n'));
        this.raw = null;
      }
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    if ((colon < 0 ? line : line.slice(0, colon)) !== 'data') return;
    const value = colon < 0 ? '' : line.slice(colon + 1);
    this.data.push(value.startsWith(' ') ? value.slice(1) : value);
  }
}
