// The compare view's read of stored runs: the bundled demo script is one model however a run recorded it.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { loadComparison } from '../../src/app/compare/compare-data.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';

const meta = (id: string, modelId: string): RunMeta => ({
  id,
  name: id,
  createdAt: 0,
  updatedAt: 0,
  config: { ...DEFAULT_CONFIG },
  modelId,
  status: 'completed',
  epochsCompleted: 1,
  epochsPlanned: 1,
  lastError: null,
});

async function differencesOf(...modelIds: string[]) {
  const store = new MemoryRunStore();
  for (const [i, modelId] of modelIds.entries()) await store.createRun(meta(`r${i}`, modelId));
  return (
    await loadComparison(
      store,
      modelIds.map((_, i) => `r${i}`),
    )
  ).comparison.differences;
}

describe('the models of compared runs', () => {
  it('takes a tab demo run and a command-line demo run for the same model', async () => {
    expect(await differencesOf('scripted:spade-lab-demo', 'scripted:demo-script.json')).toEqual([]);
  });

  it('still tells apart the two bundled demos and any other script, naming the demo by its tab id', async () => {
    expect(
      await differencesOf('scripted:demo-script.json', 'scripted:tool-use-script.json', 'scripted:other.json'),
    ).toEqual([
      { key: 'model', values: ['scripted:spade-lab-demo', 'scripted:spade-lab-tool-use-demo', 'scripted:other.json'] },
    ]);
  });
});
