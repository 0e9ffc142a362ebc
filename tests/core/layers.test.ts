import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, importsOf } from './source-imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');
type Layer = 'core' | 'analysis' | 'formats' | 'verify' | 'adapters' | 'app' | 'ui' | 'cli' | 'workers' | 'entry';

function layerOf(path: string): Layer | null {
  const rel = relative(ROOT, path);
  if (rel.startsWith('workers/')) return 'workers';
  const match = /^src\/(core|analysis|formats|verify|adapters|app|ui|cli)\//.exec(rel);
  if (match) return match[1] as Layer;
  return rel === 'src/main.ts' ? 'entry' : null;
}

/** Packages the UI may use directly: view libraries only (no storage, sandbox or model libraries). */
const UI_LIBRARIES = ['svelte', '@codemirror/', '@lezer/', 'uplot', 'chart.js'];

const ALLOWED: Record<Layer, Layer[]> = {
  core: ['core'],
  analysis: ['core', 'analysis'],
  formats: ['core', 'analysis', 'formats'],
  verify: ['core', 'formats', 'verify'],
  adapters: ['core', 'analysis', 'formats', 'adapters'],
  app: ['core', 'analysis', 'formats', 'adapters', 'app'],
  ui: ['app', 'ui'],
  cli: ['core', 'analysis', 'formats', 'verify', 'adapters', 'cli'],
  workers: ['adapters'],
  entry: ['ui'],
};

/** What a UI file may not name: the run store or the sandbox runtime behind the app context (the UI's one door is the app context). */
const UI_BYPASSES: Array<{ pattern: RegExp; use: string }> = [
  { pattern: /\.store\b/, use: 'reaches the run store: use ctx.library, ctx.views or ctx.data' },
  { pattern: /\bRunStore\b/, use: 'takes the run store: take ctx.views or ctx.data' },
  { pattern: /\bSandboxRuntime\b/, use: 'takes the sandbox runtime: use ctx.sandbox' },
];

/** The ways `source` goes past the app context, as readable strings. */
function bypassesOf(source: string): string[] {
  return UI_BYPASSES.filter(({ pattern }) => pattern.test(source)).map(({ use }) => use);
}

/** The pure layers: no packages, no DOM, no Node. */
const PURE: Layer[] = ['core', 'analysis', 'formats'];

/** Returns every import that breaks docs/architecture.md's layer rules, as readable strings. */
function violations(): string[] {
  const files = [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'workers'))];
  const found: string[] = [];
  for (const file of files) {
    const layer = layerOf(file);
    if (!layer) continue;
    for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      const where = `${relative(ROOT, file)} imports ${spec}`;
      if (!spec.startsWith('.')) {
        if (PURE.includes(layer)) found.push(`${where}: ${layer} imports only ${ALLOWED[layer].join(' and ')}`);
        if (layer === 'ui' && !typeOnly && !UI_LIBRARIES.some((prefix) => spec.startsWith(prefix)))
          found.push(`${where}: ui imports only app, view libraries and types`);
        continue;
      }
      const target = layerOf(resolve(dirname(file), spec));
      if ((target === 'core' || target === 'analysis' || target === 'formats') && typeOnly && layer === 'ui') continue;
      if (!target || !ALLOWED[layer].includes(target))
        found.push(`${where}: ${layer} may not import ${target ?? 'outside src'}`);
    }
  }
  return found;
}

describe('layer rules', () => {
  it('every import follows the layer rules of docs/architecture.md', () => {
    expect(violations()).toEqual([]);
  });

  it('the UI reaches the store and the sandbox only through the app context', () => {
    const offenders = filesUnder(join(ROOT, 'src', 'ui')).flatMap((file) =>
      bypassesOf(readFileSync(file, 'utf8')).map((use) => `${relative(ROOT, file)} ${use}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the pure layers (core, analysis, formats) use no DOM, Node or console globals', () => {
    const offenders = PURE.flatMap((layer) => filesUnder(join(ROOT, 'src', layer))).filter((file) => {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
      return /\b(window|document|indexedDB|localStorage|navigator|console|process|globalThis)\.[A-Za-z_$]|\brequire\(/.test(
        code,
      );
    });
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('the checker itself catches a violation', () => {
    expect(/\b(window|document|console)\.[A-Za-z_$]/.test('console.log(1)')).toBe(true);
    expect(importsOf("import { x } from '../adapters/y.ts';\nimport type { T } from './t.ts';")).toEqual([
      { spec: '../adapters/y.ts', typeOnly: false },
      { spec: './t.ts', typeOnly: true },
    ]);
    expect(layerOf(join(ROOT, 'src/core/env/a.ts'))).toBe('core');
    expect(layerOf(join(ROOT, 'src/formats/export/a.ts'))).toBe('formats');
    expect(ALLOWED.core.includes('adapters')).toBe(false);
    expect(ALLOWED.core.includes('formats')).toBe(false);
    expect(ALLOWED.core.includes('analysis')).toBe(false);
    expect(layerOf(join(ROOT, 'src/analysis/env-query.ts'))).toBe('analysis');
    expect(ALLOWED.formats.includes('adapters')).toBe(false);
    expect(bypassesOf('if (ctx) runList = await ctx.store.listRuns();')).toHaveLength(1);
    expect(bypassesOf('<DataPanel store={ctx.store} runId={ctx.runs.meta?.id ?? null} />')).toHaveLength(1);
    expect(bypassesOf("import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';")).toHaveLength(1);
    expect(bypassesOf("import type { RunStore } from '../core/ports/store-port.ts';")).toHaveLength(1);
    expect(bypassesOf("await ctx.library.refresh(); u.ctx.restore(); // the browser's storage")).toEqual([]);
  });
});
