import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './fixtures/temp-dirs.ts';

describe("the Node test files' temporary folders", () => {
  it('are made under the OS temp folder with the prefix, and removed with their contents', () => {
    const [first, second] = [tempDir('spade-temp-dirs-'), tempDir('spade-temp-dirs-')];
    writeFileSync(join(first, 'file.txt'), 'x');
    expect([dirname(first), first.slice(tmpdir().length + 1, -6), first === second]).toEqual([
      tmpdir(),
      'spade-temp-dirs-',
      false,
    ]);
    removeTempDirs();
    expect([existsSync(first), existsSync(second)]).toEqual([false, false]);
  });
});
