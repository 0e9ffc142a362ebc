import { workerSource, pyodideBase, pyodideFiles } from 'virtual:spade-sandbox';
import { createBrowserSandboxRuntime } from '../adapters/sandbox/browser-sandbox.ts';
import type { PyodideSandboxRuntime } from '../adapters/sandbox/pyodide-runtime.ts';
import { DEFAULT_VALIDATION, validateEnvironment, type ValidationReport } from '../core/env/validate-env.ts';

let runtime: PyodideSandboxRuntime | null = null;

/** The app's one browser sandbox runtime, created on first use. */
export function appSandbox(): PyodideSandboxRuntime {
  runtime ??= createBrowserSandboxRuntime({ workerSource, pyodideBase, pyodideFiles });
  return runtime;
}

/** Validates code as it is (`code`: edited or pasted Python), or a designer reply (`reply`: fenced block extracted, `<think>` stripped, f-string braces repaired), in the app's sandbox with the tab defaults. */
export function validateInApp(text: string, source: 'code' | 'reply'): Promise<ValidationReport> {
  return validateEnvironment(text, appSandbox(), { ...DEFAULT_VALIDATION, source });
}
