import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairFStringBraces } from '../../../src/core/env/fstring-repair.ts';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';

let runtime: PyodideSandboxRuntime;
beforeAll(async () => {
  runtime = createNodeSandboxRuntime({ spares: 1 });
  await runtime.warm();
});
afterAll(() => runtime.close());

describe('repairFStringBraces (real Python parser)', () => {
  it('leaves valid code untouched', async () => {
    const code = 'x = 1\nmsg = f"value {x}"\n';
    expect(await repairFStringBraces(code, runtime.checkSyntax)).toEqual({ code, repairedLines: [] });
  });

  it('doubles braces whose inside is not an expression, keeps real fields', async () => {
    const code = 'x = 1\nmsg = f"send \\\\boxed{your move} after {x}"\n';
    const { code: repaired, repairedLines } = await repairFStringBraces(code, runtime.checkSyntax);
    expect(repaired).toBe('x = 1\nmsg = f"send \\\\boxed{{your move}} after {x}"\n');
    expect(repairedLines).toEqual([2]);
    expect((await runtime.checkSyntax(repaired, 'exec')).ok).toBe(true);
  });

  it('repairs several broken lines, one per round', async () => {
    const code = 'a = f"{one two}"\nb = 2\nc = f"{three four}"\n';
    const { code: repaired, repairedLines } = await repairFStringBraces(code, runtime.checkSyntax);
    expect(repaired).toBe('a = f"{{one two}}"\nb = 2\nc = f"{{three four}}"\n');
    expect(repairedLines).toEqual([1, 3]);
  });

  it('gives up on errors that are not brace problems', async () => {
    const code = 'def broken(:\n    pass\n';
    expect(await repairFStringBraces(code, runtime.checkSyntax)).toEqual({ code, repairedLines: [] });
  });

  it('stops after the iteration limit', async () => {
    const code = Array.from({ length: 5 }, (_, i) => `v${i} = f"{bad ${i}}"`).join('\n') + '\n';
    const { repairedLines } = await repairFStringBraces(code, runtime.checkSyntax, 3);
    expect(repairedLines).toEqual([1, 2, 3]);
  });
});
