// The import scanning shared by the layer rules and the cycle check: source files and the
// specifiers they import, read with regular expressions (no compiler needed).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One import or re-export of a file. */
export interface Import {
  spec: string;
  typeOnly: boolean;
}

/** Every TypeScript and Svelte source file under `dir` (declaration files left out). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|svelte)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The static imports, re-exports and dynamic imports of a source text. */
export function importsOf(source: string): Import[] {
  const pattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g;
  const dynamic = /import\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [
    ...[...source.matchAll(pattern)].map((m) => ({ spec: m[3]!, typeOnly: Boolean(m[2]) })),
    ...[...source.matchAll(dynamic)].map((m) => ({ spec: m[1]!, typeOnly: false })),
  ];
}
