import { workerSource, pyodideBase, pyodideFiles } from 'virtual:spade-sandbox';
import { browserSandboxSpawner, createBrowserSandboxRuntime } from '../../src/adapters/sandbox/browser-sandbox.ts';
import { EXAMPLE_ENV } from '../../src/app/example-env.ts';
import { measureSandbox } from './measure-sandbox.ts';

/** Runs the sandbox measurements in this page and resolves with the figures. */
(window as unknown as { spadeBench: () => Promise<unknown> }).spadeBench = () =>
  measureSandbox(
    () => createBrowserSandboxRuntime({ workerSource, pyodideBase, pyodideFiles }),
    EXAMPLE_ENV,
    () => performance.now(),
  );

const assets = { workerSource, pyodideBase, pyodideFiles };
const shared = browserSandboxSpawner(assets);

/**
 * Starts `count` interpreters one after another and resolves with each start's time in ms: from
 * one spawner (one frame, Pyodide compiled once) or `fresh` (a new spawner, so a new frame and a
 * full compile, for every interpreter).
 */
(window as unknown as { spadeBoots: (kind: 'shared' | 'fresh', count: number) => Promise<number[]> }).spadeBoots = async (kind, count) => {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const proc = await (kind === 'shared' ? shared : browserSandboxSpawner(assets))();
    times.push(performance.now() - started);
    proc.kill();
  }
  return times;
};
