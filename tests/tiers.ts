// Sorts the Node test files into tiers by cost, from their imports: a file that (directly or
// through a local helper) imports the real Node sandbox, the CLI commands, the sandbox process
// fixtures or node:child_process starts Python or processes and belongs to the integration
// tier; every other Node test file is a unit test. vitest.config.ts builds its projects from this.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const HEAVY = [/\/src\/adapters\/sandbox\/node-sandbox\.ts$/, /\/src\/cli\//, /\/tests\/fixtures\/sandbox\//];
const HEAVY_MODULES = new Set(['node:child_process', 'child_process']);
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

/** True when `file` imports, directly or through local files, something that starts Python or a process. */
export function startsProcesses(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  for (const spec of specifiers(file)) {
    if (HEAVY_MODULES.has(spec)) return true;
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (HEAVY.some((pattern) => pattern.test(target))) return true;
    if (target.includes('/tests/') && /\.ts$/.test(target) && existsSync(target) && startsProcesses(target, seen)) return true;
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
