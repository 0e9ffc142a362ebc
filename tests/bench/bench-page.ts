import { sandboxAssets } from 'virtual:spade-sandbox';
import { browserSandboxSpawner, createBrowserSandboxRuntime } from '../../src/adapters/sandbox/browser-sandbox.ts';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';
import { measureSandbox } from './measure-sandbox.ts';

/** Runs the sandbox measurements in this page and resolves with the figures. */
(window as unknown as { spadeBench: () => Promise<unknown> }).spadeBench = () =>
  measureSandbox(
    () => createBrowserSandboxRuntime(sandboxAssets),
    EXAMPLE_ENV,
    () => performance.now(),
  );

const spawn = browserSandboxSpawner(sandboxAssets);

/** Starts `count` interpreters one after another with the app's spawner and resolves with each start's time in ms. */
(window as unknown as { spadeBoots: (count: number) => Promise<number[]> }).spadeBoots = async (count) => {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const proc = await spawn();
    times.push(performance.now() - started);
    proc.kill();
  }
  return times;
};
