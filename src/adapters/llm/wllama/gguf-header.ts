/** A metadata value as summarised: scalars and strings in full, arrays by item type and length only. */
export type GgufMetaValue = number | bigint | boolean | string | { arrayOf: string; length: number };

/** What the start of a GGUF file says about the model. */
export interface GgufSummary {
  version: number;
  tensorCount: number;
  metadata: Record<string, GgufMetaValue>;
  /** `general.architecture`, e.g. `llama` or `qwen3`. */
  architecture: string | null;
  /** `general.name`, or null. */
  name: string | null;
  /** `<arch>.context_length` in tokens, or null. */
  contextLength: number | null;
  /** The file ships `tokenizer.chat_template`. */
  hasChatTemplate: boolean;
  /** Weights counted from the tensor infos, or null when the bytes ended before them. */
  parameters: number | null;
  /** False when the bytes ended inside the metadata or tensor infos (read a longer prefix for the rest). */
  complete: boolean;
}

/** Why bytes are not a readable GGUF file. */
export class GgufFormatError extends Error {
  override readonly name = 'GgufFormatError';
  constructor(
    readonly code: 'not_gguf' | 'unsupported_version' | 'corrupt',
    message: string,
  ) {
    super(message);
  }
}

const TYPE_NAMES = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'bool', 'string', 'array', 'u64', 'i64', 'f64'];
const FIXED_SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

class Truncated extends Error {}

function utf8(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const extra = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
    let code = extra === 0 ? b : b & (0x3f >> extra);
    for (let k = 1; k <= extra; k++) code = (code << 6) | ((bytes[i + k] ?? 0) & 0x3f);
    out += String.fromCodePoint(b >= 0x80 && extra === 0 ? 0xfffd : code);
    i += extra + 1;
  }
  return out;
}

class Cursor {
  offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  need(n: number): number {
    if (this.offset + n > this.bytes.length) throw new Truncated();
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u32(): number {
    return this.view.getUint32(this.need(4), true);
  }

  u64(): number {
    const value = this.view.getBigUint64(this.need(8), true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER))
      throw new GgufFormatError(
        'corrupt',
        `a length of ${value} at byte ${this.offset - 8} is impossible: the file is corrupt`,
      );
    return Number(value);
  }

  string(): string {
    const length = this.u64();
    const at = this.need(length);
    return utf8(this.bytes.subarray(at, at + length));
  }

  scalar(type: number): GgufMetaValue {
    if (type === 8) return this.string();
    const size = FIXED_SIZES[type];
    if (size === undefined)
      throw new GgufFormatError(
        'corrupt',
        `unknown metadata type ${type} at byte ${this.offset}: the file is corrupt or of a newer GGUF version`,
      );
    const at = this.need(size);
    const v = this.view;
    const readers: Record<number, () => GgufMetaValue> = {
      0: () => v.getUint8(at),
      1: () => v.getInt8(at),
      2: () => v.getUint16(at, true),
      3: () => v.getInt16(at, true),
      4: () => v.getUint32(at, true),
      5: () => v.getInt32(at, true),
      6: () => v.getFloat32(at, true),
      7: () => v.getUint8(at) !== 0,
      10: () => v.getBigUint64(at, true),
      11: () => v.getBigInt64(at, true),
      12: () => v.getFloat64(at, true),
    };
    return readers[type]!();
  }

  value(type: number): GgufMetaValue {
    if (type !== 9) return this.scalar(type);
    const itemType = this.u32();
    const length = this.u64();
    if (itemType === 9) throw new GgufFormatError('corrupt', `nested arrays at byte ${this.offset} are not supported`);
    if (itemType === 8) for (let i = 0; i < length; i++) this.need(this.u64());
    else this.need((FIXED_SIZES[itemType] ?? Number.NaN) * length);
    return { arrayOf: TYPE_NAMES[itemType] ?? `type ${itemType}`, length };
  }
}

/**
 * Reads the header, metadata and tensor infos at the start of a GGUF file (version 2 or 3). A
 * prefix is enough: what lies beyond `bytes` is reported as incomplete, not as an error.
 */
export function readGgufHeader(bytes: Uint8Array): GgufSummary {
  const cursor = new Cursor(bytes);
  const magic = bytes.length >= 4 ? utf8(bytes.subarray(0, 4)) : '';
  if (magic !== 'GGUF')
    throw new GgufFormatError(
      'not_gguf',
      `this is not a GGUF file (it starts with ${JSON.stringify(magic)}, expected "GGUF"). Choose a .gguf model file, e.g. one converted by llama.cpp.`,
    );
  cursor.need(4);
  let version = 0;
  let tensorCount = 0;
  const metadata: Record<string, GgufMetaValue> = {};
  let parameters: number | null = null;
  let complete = true;
  try {
    version = cursor.u32();
    if (version !== 2 && version !== 3)
      throw new GgufFormatError(
        'unsupported_version',
        `GGUF version ${version} is not supported (expected 2 or 3); convert the model again with a current llama.cpp.`,
      );
    tensorCount = cursor.u64();
    const kvCount = cursor.u64();
    for (let i = 0; i < kvCount; i++) {
      const key = cursor.string();
      metadata[key] = cursor.value(cursor.u32());
    }
    let count = 0;
    for (let i = 0; i < tensorCount; i++) {
      cursor.string();
      const dims = cursor.u32();
      let elements = 1;
      for (let d = 0; d < dims; d++) elements *= cursor.u64();
      cursor.u32();
      cursor.u64();
      count += elements;
    }
    parameters = count;
  } catch (error) {
    if (!(error instanceof Truncated)) throw error;
    complete = false;
  }
  const text = (key: string): string | null => (typeof metadata[key] === 'string' ? (metadata[key] as string) : null);
  const architecture = text('general.architecture');
  const context = architecture ? metadata[`${architecture}.context_length`] : undefined;
  return {
    version,
    tensorCount,
    metadata,
    architecture,
    name: text('general.name'),
    contextLength: typeof context === 'number' ? context : typeof context === 'bigint' ? Number(context) : null,
    hasChatTemplate: typeof metadata['tokenizer.chat_template'] === 'string',
    parameters,
    complete,
  };
}
