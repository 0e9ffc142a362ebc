import { describe, expect, it } from 'vitest';
import { MemoryImage, type InterpreterModule } from '../../../src/adapters/sandbox/memory-image.ts';

const PAGE = 4096;

// The parts of an Emscripten module a memory image reads, over plain memory with a movable break.
function fakeModule(pages: number, allocatorBreak: number): InterpreterModule & { brk: number } {
  const module = {
    HEAP8: new Int8Array(pages * PAGE),
    brk: allocatorBreak,
    _sbrk: () => module.brk,
    FS: { streams: [], cwd: () => '/home/pyodide', isChrdev: () => true },
    wasmTable: { length: 10 },
    LDSO: { loadedLibsByName: {} },
    stackSave: () => 100,
    hiwire: { num_keys: () => 3 },
  };
  return module;
}

describe('MemoryImage', () => {
  it('restores memory byte for byte: data pages, pages of zeros the play wrote, and growth past the image', () => {
    const module = fakeModule(8, 6 * PAGE);
    module.HEAP8.fill(1, 0, PAGE);
    module.HEAP8[3 * PAGE + 7] = 2;
    module.HEAP8[6 * PAGE - 1] = 3;
    const sealed = module.HEAP8.slice();
    const image = MemoryImage.capture(module);
    module.HEAP8.fill(9, 0, 2 * PAGE);
    module.HEAP8[4 * PAGE] = 5;
    module.HEAP8[7 * PAGE + 1] = 6;
    const grown = new Int8Array(10 * PAGE);
    grown.set(module.HEAP8);
    grown[9 * PAGE] = 7;
    module.HEAP8 = grown;
    expect(image.restore()).toBeNull();
    expect(module.HEAP8.subarray(0, sealed.length)).toEqual(sealed);
    expect(module.HEAP8.subarray(sealed.length).every((byte) => byte === 0)).toBe(true);
  });

  it('keeps only the pages below the break that are not zero', () => {
    const module = fakeModule(64, 8 * PAGE);
    module.HEAP8[PAGE + 1] = 1;
    module.HEAP8[5 * PAGE + 1] = 1;
    const image = MemoryImage.capture(module) as unknown as { bytes: { kept: Int8Array; runs: number[] } };
    expect(image.bytes.kept.length).toBe(2 * PAGE);
    expect(image.bytes.runs).toEqual([PAGE, 2 * PAGE, 5 * PAGE, 6 * PAGE]);
  });

  it('takes memory above the break as zero without reading it (nothing writes there before the seal)', () => {
    const module = fakeModule(8, 2 * PAGE);
    module.HEAP8[PAGE] = 1;
    module.HEAP8[5 * PAGE] = 4;
    const image = MemoryImage.capture(module);
    expect(image.restore()).toBeNull();
    expect(module.HEAP8[PAGE]).toBe(1);
    expect(module.HEAP8[5 * PAGE]).toBe(0);
  });

  it('writes zeros only into pages that hold something, so memory no play used is never written', () => {
    const module = fakeModule(8, 2 * PAGE);
    module.HEAP8[1] = 1;
    const image = MemoryImage.capture(module);
    module.HEAP8[5 * PAGE + 3] = 2;
    const filled: number[] = [];
    const fill = module.HEAP8.fill.bind(module.HEAP8);
    module.HEAP8.fill = (value: number, start?: number, end?: number) => {
      filled.push(start ?? 0);
      return fill(value, start, end);
    };
    expect(image.restore()).toBeNull();
    expect(filled).toEqual([5 * PAGE]);
    expect(module.HEAP8[5 * PAGE + 3]).toBe(0);
    expect(module.HEAP8[1]).toBe(1);
  });

  it('takes the whole memory when the module has no break to ask', () => {
    const module: InterpreterModule = { ...fakeModule(4, 0), _sbrk: undefined };
    module.HEAP8[3 * PAGE + 2] = 8;
    const image = MemoryImage.capture(module);
    module.HEAP8[3 * PAGE + 2] = 0;
    expect(image.restore()).toBeNull();
    expect(module.HEAP8[3 * PAGE + 2]).toBe(8);
  });

  it('refuses, writing nothing, when state outside memory changed', () => {
    const module = fakeModule(4, 4 * PAGE);
    const image = MemoryImage.capture(module);
    module.wasmTable.length = 11;
    module.HEAP8[0] = 5;
    expect(image.restore()).toBe('state outside memory changed (table)');
    expect(module.HEAP8[0]).toBe(5);
  });

  it('parks a state as the pages that differ from the image, back to the image, and writes it back exactly', () => {
    const module = fakeModule(8, 4 * PAGE);
    module.HEAP8.fill(1, 0, PAGE);
    const image = MemoryImage.capture(module);
    const sealed = module.HEAP8.slice();
    // One environment writes a data page, a page of zeros below the break, and above the old break.
    module.HEAP8[10] = 4;
    module.HEAP8[2 * PAGE + 3] = 5;
    module.brk = 6 * PAGE;
    module.HEAP8[5 * PAGE] = 6;
    const state = module.HEAP8.slice();
    const diff = image.diff();
    if (typeof diff === 'string') throw new Error(diff);
    expect([...diff.pages]).toEqual([0, 2, 5]);
    image.revert(diff);
    module.brk = 4 * PAGE;
    expect(module.HEAP8).toEqual(sealed);
    // Another environment runs in the memory meanwhile and is parked in turn.
    module.HEAP8[3 * PAGE] = 7;
    const other = image.diff();
    if (typeof other === 'string') throw new Error(other);
    expect([...other.pages]).toEqual([3]);
    image.revert(other);
    expect(image.apply(diff)).toBeNull();
    expect(module.HEAP8).toEqual(state);
  });

  it('refuses to park a state that changed something outside memory, and a state larger than the memory', () => {
    const module = fakeModule(4, 2 * PAGE);
    const image = MemoryImage.capture(module);
    module.wasmTable.length = 11;
    expect(image.diff()).toMatch(/state outside memory changed \(table\)/);
    module.wasmTable.length = 10;
    expect(image.apply({ pages: Uint32Array.of(9), bytes: new Uint8Array(PAGE) })).toMatch(/larger than the memory/);
  });
});
