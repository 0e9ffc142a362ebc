// The GGUF header reader against the test suite's generated model (whose loading by the real
// engine tests/browser/wllama-engine.test.ts shows), prefixes of it, and broken files.
import { describe, expect, it } from 'vitest';
import { GgufFormatError, readGgufHeader } from '../../../../src/adapters/llm/wllama/gguf-header.ts';
import { makeTinyGguf, tinyModel, tinyVocabulary, TINY_SHAPE } from '../../../fixtures/gguf/make-tiny-gguf.ts';

const bytes = makeTinyGguf();

describe('the generated tiny model', () => {
  it('is about half a megabyte, the same bytes every time, padded to the 32-byte alignment', () => {
    expect(bytes.length).toBe(488_800);
    expect(Buffer.from(makeTinyGguf()).equals(Buffer.from(bytes))).toBe(true);
    expect(bytes.length % 32).toBe(0);
  });

  it('has a byte-fallback vocabulary: 5 special tokens, 256 byte tokens, then text tokens', () => {
    const vocab = tinyVocabulary();
    expect(vocab.tokens.length).toBe(357);
    expect(vocab.tokens.slice(0, 6)).toEqual(['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>', '<0x00>']);
    expect(vocab.tokens[260]).toBe('<0xFF>');
    expect(vocab.tokens.slice(261, 264)).toEqual(['\u2581', '\n', '!']);
  });

  it('gives control and byte tokens all-zero output rows and text tokens a strong constant channel', () => {
    const { tensors } = tinyModel();
    const output = tensors.find((t) => t.name === 'output.weight')!;
    const embd = TINY_SHAPE.embd;
    const row = (token: number) => output.data.subarray(token * embd, (token + 1) * embd);
    for (const token of [0, 1, 4, 5, 130, 260]) expect(row(token).every((x) => x === 0)).toBe(true);
    for (const token of [261, 262, 300, 356]) expect(row(token)[0]).toBe(3);
  });
});

describe('readGgufHeader', () => {
  it('reads the metadata, the tensor count and the parameter count', () => {
    const summary = readGgufHeader(bytes);
    expect(summary).toMatchObject({
      version: 3,
      tensorCount: 21,
      architecture: 'llama',
      name: 'SPADE tiny test model',
      contextLength: 16384,
      hasChatTemplate: true,
      complete: true,
    });
    expect(summary.parameters).toBe(2 * 357 * 64 + 64 + 2 * (2 * 64 + 2 * 64 * 64 + 2 * 64 * 32 + 3 * 64 * 128));
    expect(summary.metadata['llama.attention.layer_norm_rms_epsilon']).toBeCloseTo(1e-5, 10);
    expect(summary.metadata['tokenizer.ggml.tokens']).toEqual({ arrayOf: 'string', length: 357 });
    expect(summary.metadata['tokenizer.ggml.add_bos_token']).toBe(false);
  });

  it('reports a prefix that ends inside the metadata as incomplete instead of failing', () => {
    const summary = readGgufHeader(bytes.subarray(0, 600));
    expect(summary).toMatchObject({
      version: 3,
      tensorCount: 21,
      architecture: 'llama',
      parameters: null,
      complete: false,
    });
    expect(summary.metadata).not.toHaveProperty('tokenizer.chat_template');
  });

  it('refuses bytes that are not GGUF, naming what they start with', () => {
    const error = (() => {
      try {
        readGgufHeader(new TextEncoder().encode('PK\u0003\u0004 a zip file'));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(GgufFormatError);
    expect(error).toMatchObject({
      code: 'not_gguf',
      message: expect.stringMatching(/^this is not a GGUF file \(it starts with "PK\\u0003\\u0004", expected "GGUF"\)/),
    });
  });

  it('refuses an unknown GGUF version and an impossible metadata type', () => {
    const version = bytes.slice(0, 64);
    new DataView(version.buffer).setUint32(4, 7, true);
    expect(() => readGgufHeader(version)).toThrow(expect.objectContaining({ code: 'unsupported_version' }));
    const type = bytes.slice();
    const firstTypeAt = 4 + 4 + 8 + 8 + 8 + 'general.architecture'.length;
    new DataView(type.buffer).setUint32(firstTypeAt, 99, true);
    expect(() => readGgufHeader(type)).toThrow(
      expect.objectContaining({ code: 'corrupt', message: expect.stringMatching(/unknown metadata type 99/) }),
    );
  });
});
