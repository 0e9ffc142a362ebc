import { expect, it } from 'vitest';
import { HANG_RESERVE, INTERPRETER_BUDGET_BYTES, poolSize } from '../../../src/adapters/sandbox/pool-size.ts';

const GIB = 1024 ** 3;

it('keeps a spare per core and two for back-to-back hangs, with no fixed cap, as far as half the free memory holds', () => {
  expect(HANG_RESERVE).toBe(2);
  expect(poolSize(2, 20 * GIB)).toMatchObject({ spares: 4, bootsAtOnce: 2 });
  expect(poolSize(64, 200 * GIB)).toMatchObject({ spares: 66, bootsAtOnce: 64 });
  // 64 cores but 4 GiB free: half of it holds 8 interpreters.
  expect(poolSize(64, 4 * GIB)).toMatchObject({ spares: (2 * GIB) / INTERPRETER_BUDGET_BYTES, bootsAtOnce: 64 });
  expect(poolSize(8, 0)).toMatchObject({ spares: 1, bootsAtOnce: 8 });
});

it('boots on every core but the reserved ones, and always on one', () => {
  expect(poolSize(4, 8 * GIB, 1)).toMatchObject({ spares: 6, bootsAtOnce: 3 });
  expect(poolSize(1, 8 * GIB, 1)).toMatchObject({ spares: 3, bootsAtOnce: 1 });
  // 1 GiB free: half of it holds two interpreters, fewer than a core and the reserve.
  expect(poolSize(1, GIB, 0)).toMatchObject({ spares: 2, bootsAtOnce: 1 });
});

it('keeps as many interpreters waiting as half the free memory holds, at least the spares', () => {
  expect(poolSize(2, 20 * GIB).kept).toBe(Math.floor((10 * GIB) / INTERPRETER_BUDGET_BYTES));
  expect(poolSize(64, 4 * GIB).kept).toBe((2 * GIB) / INTERPRETER_BUDGET_BYTES);
  expect(poolSize(8, 0).kept).toBe(1);
});
