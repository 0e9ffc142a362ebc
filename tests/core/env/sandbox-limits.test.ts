// The host measures with the harness's own numbers: the Python side states each cap once, and this
// reads it there, so the two cannot drift apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  DEFAULT_MAX_OUTPUT_CHARS,
  INFO_MAX_DEPTH,
  MESSAGE_CHARS,
  NAME_CHARS,
  REPR_CHARS,
} from '../../../src/core/env/sandbox-limits.ts';

const SANDBOX = join(import.meta.dirname, '../../../src/adapters/sandbox');
const pythonNumber = (file: string, pattern: RegExp): number =>
  Number(pattern.exec(readFileSync(join(SANDBOX, file), 'utf8'))?.[1]?.replace(/_/g, ''));

it('every cap of sandbox-limits.ts is the number encoding.py and harness.py use', () => {
  expect(pythonNumber('encoding.py', /^_NAME_CHARS = (\d+)$/m)).toBe(NAME_CHARS);
  expect(pythonNumber('encoding.py', /^_MSG_CHARS = (\d+)$/m)).toBe(MESSAGE_CHARS);
  expect(pythonNumber('encoding.py', /^_REPR_CHARS = (\d+)$/m)).toBe(REPR_CHARS);
  expect(pythonNumber('encoding.py', /^_INFO_DEPTH = (\d+)/m)).toBe(INFO_MAX_DEPTH);
  expect(pythonNumber('harness.py', /"max_chars": ([\d_]+)/)).toBe(DEFAULT_MAX_OUTPUT_CHARS);
  expect(readFileSync(join(SANDBOX, 'encoding.py'), 'utf8').match(/depth < _INFO_DEPTH and/g)).toHaveLength(2);
});
