import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, importsOf } from './source-imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Each file's local imports (type-only ones too: a type declared in the wrong file is a cycle all the same). */
type ImportGraph = Map<string, string[]>;

/** The import graph of every source file under `dirs` (paths relative to the repository). */
function importGraph(dirs: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of dirs.flatMap((dir) => filesUnder(join(ROOT, dir)))) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .filter(({ spec }) => spec.startsWith('.'))
      .map(({ spec }) => resolve(dirname(file), spec.replace(/\?.*$/, '')))
      .filter((target) => existsSync(target))
      .map((target) => relative(ROOT, target));
    graph.set(relative(ROOT, file), [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself), by Tarjan's algorithm. */
function tangles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** One cycle through a tangle's first file, as `a.ts -> b.ts -> a.ts` (a shortest one, by breadth-first search). */
function cycleThrough(graph: ImportGraph, component: readonly string[]): string {
  const start = component[0]!;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start].join(' -> ');
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return component.join(', ');
}

/** Every import cycle among `graph`'s files, one readable cycle per tangle. */
function importCycles(graph: ImportGraph): string[] {
  return tangles(graph).map((component) => cycleThrough(graph, component));
}

describe('import cycles', () => {
  it('no file in src or workers imports itself through other files', () => {
    expect(importCycles(importGraph(['src', 'workers']))).toEqual([]);
  });

  it('the check finds a cycle and names its files in import order', () => {
    const graph: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts', 'e.ts -> e.ts']);
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});
