import { workerSource, pyodideBase, pyodideFiles } from 'virtual:spade-sandbox';
import { createBrowserSandboxRuntime } from '../../src/adapters/sandbox/browser-sandbox.ts';
import { EXAMPLE_ENV } from '../../src/app/example-env.ts';
import { measureSandbox } from './measure-sandbox.ts';

/** Runs the sandbox measurements in this page and resolves with the figures. */
(window as unknown as { spadeBench: () => Promise<unknown> }).spadeBench = () =>
  measureSandbox(
    () => createBrowserSandboxRuntime({ workerSource, pyodideBase, pyodideFiles }),
    EXAMPLE_ENV,
    () => performance.now(),
  );
