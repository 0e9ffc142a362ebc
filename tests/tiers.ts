// Sorts the Node test files into tiers by cost, from their imports: a file that (directly or
// through a local helper) imports the real Node sandbox, the CLI commands, the sandbox process
// fixtures or node:child_process starts Python or processes and belongs to the integration
// tier; every other Node test file is a unit test. A file that drives the CLI only over fakes
// (every command given a fake sandbox, no subprocess) says so with CLI_OVER_FAKES: the CLI's
// modules then do not count, anything else heavy still does. Type-only imports never count (they
// run nothing). vitest.config.ts builds its projects from this.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The line a test file carries when it runs the CLI's commands only over fakes (no Python, no process), so that it belongs to the unit tier. */
export const CLI_OVER_FAKES = '// Test tier: unit (the CLI over fakes only: no Python, no process).';

const CLI = /\/src\/cli\//;
const HEAVY = [/\/src\/adapters\/sandbox\/node-sandbox\.ts$/, CLI, /\/tests\/fixtures\/sandbox\//];
const HEAVY_MODULES = new Set(['node:child_process', 'child_process']);
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function specifiers(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

/** True when `file` imports, directly or through local files, something that starts Python or a process (the CLI's modules not counted in a file that carries CLI_OVER_FAKES). */
export function startsProcesses(file: string): boolean {
  const overFakes = readFileSync(file, 'utf8').includes(CLI_OVER_FAKES);
  return reachesHeavy(file, overFakes ? HEAVY.filter((pattern) => pattern !== CLI) : HEAVY, new Set());
}

// Whether `file` or a local file it imports (helpers always with every HEAVY pattern) imports something matching `heavy`.
function reachesHeavy(file: string, heavy: readonly RegExp[], seen: Set<string>): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  for (const spec of specifiers(readFileSync(file, 'utf8'))) {
    if (HEAVY_MODULES.has(spec)) return true;
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (heavy.some((pattern) => pattern.test(target))) return true;
    if (target.includes('/tests/') && /\.ts$/.test(target) && existsSync(target) && reachesHeavy(target, HEAVY, seen))
      return true;
  }
  return false;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'browser' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The Node test files (everything under tests/ except tests/browser), split into unit and integration tiers, as paths relative to `root`. */
export function nodeTestTiers(root: string): { unit: string[]; integration: string[] } {
  const files = testFiles(join(root, 'tests')).sort();
  const integration = files.filter((file) => startsProcesses(file));
  return {
    unit: files.filter((file) => !integration.includes(file)).map((file) => relative(root, file)),
    integration: integration.map((file) => relative(root, file)),
  };
}
