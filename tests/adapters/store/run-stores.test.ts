// The RunStore contract against all three stores: memory, IndexedDB (fake-indexeddb) and file.
import 'fake-indexeddb/auto';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import { FileRunStore } from '../../../src/adapters/store/file-run-store.ts';
import { openIndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { MemoryRunStore } from '../../../src/adapters/store/memory-run-store.ts';
import type { EpochResult } from '../../../src/core/loop/epoch.ts';
import { runStoreContract } from './run-store-contract.ts';
import { scriptedEpochs, syntheticEpochs } from './store-fixtures.ts';
import { fakeSandbox } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';
import { tempDir } from '../../fixtures/temp-dirs.ts';

// The view data, the store or the re-score is the point, not Python: the scripted games run as in-process doubles.
const sandbox = fakeSandbox(HINT_HELPS_DOUBLES);

let real: EpochResult[];
let synthetic: EpochResult[];
let dbCount = 0;

beforeAll(async () => {
  real = await scriptedEpochs(sandbox, 2);
  synthetic = syntheticEpochs(real, 4, 9);
});

const common = { realEpochs: () => real, syntheticEpochs: () => synthetic };
runStoreContract('memory', { ...common, multiRun: true, makeStore: async () => new MemoryRunStore() });
runStoreContract('IndexedDB (fake-indexeddb)', {
  ...common,
  multiRun: true,
  makeStore: () => openIndexedDbRunStore({ name: `contract-${++dbCount}` }),
});
runStoreContract('file', {
  ...common,
  multiRun: false,
  makeStore: async () => new FileRunStore(join(tempDir('spade-store-'), 'run')),
});
