// The RunStore contract against all three stores: memory, IndexedDB (fake-indexeddb) and file.
import 'fake-indexeddb/auto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { FileRunStore } from '../../../src/adapters/store/file-run-store.ts';
import { openIndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { MemoryRunStore } from '../../../src/adapters/store/memory-run-store.ts';
import type { EpochResult } from '../../../src/core/loop/epoch.ts';
import { runStoreContract } from './run-store-contract.ts';
import { scriptedEpochs, syntheticEpochs } from './store-fixtures.ts';

let sandbox: PyodideSandboxRuntime;
let real: EpochResult[];
let synthetic: EpochResult[];
let dbCount = 0;

beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  real = await scriptedEpochs(sandbox, 2);
  synthetic = syntheticEpochs(real, 4, 9);
});
afterAll(() => sandbox.close());

const common = { realEpochs: () => real, syntheticEpochs: () => synthetic };
runStoreContract('memory', { ...common, multiRun: true, makeStore: async () => new MemoryRunStore() });
runStoreContract('IndexedDB (fake-indexeddb)', { ...common, multiRun: true, makeStore: () => openIndexedDbRunStore({ name: `contract-${++dbCount}` }) });
runStoreContract('file', { ...common, multiRun: false, makeStore: async () => new FileRunStore(join(mkdtempSync(join(tmpdir(), 'spade-store-')), 'run')) });
