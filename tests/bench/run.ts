import { performance } from 'node:perf_hooks';
import { availableParallelism } from 'node:os';
import { createNodeSandboxRuntime, spawnNodeSandbox } from '../../src/adapters/sandbox/node-sandbox.ts';
import { PyodideSandboxRuntime } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';
import { startRig } from '../browser/harness.ts';
import { measureBoots, measureSandbox, type SandboxFigures } from './measure-sandbox.ts';
import { measureBrowserBoots } from './browser-boots.ts';
import { measureEpochOverhead } from './epoch-overhead.ts';

function print(name: string, figures: SandboxFigures): void {
  const f = (n: number) => `${n.toFixed(n < 10 ? 3 : 0)} ms`;
  process.stdout.write(
    [
      `${name} sandbox`,
      `  cold start to first reset     ${f(figures.coldStartToFirstResetMs)}`,
      `  warm step round trip median   ${f(figures.warmStepMedianMs)}   p95 ${f(figures.warmStepP95Ms)}   (${figures.steps} steps back to back, spares booted)`,
      `  paced step round trip median  ${f(figures.pacedStepMedianMs)}   p95 ${f(figures.pacedStepP95Ms)}   (${figures.pacedSteps} steps, each after 100-300 ms idle)`,
      `  validate typical env median   ${f(figures.validateTypicalMedianMs)}   (spares booted)`,
      `  play start (load + reset)     ${f(figures.playStartMedianMs)}   p95 ${f(figures.playStartP95Ms)}   (spares booted)`,
      `  recovery after a killed hang  ${f(figures.recoveryAfterHangMs)}`,
      `  recovery after a second hang  ${f(figures.recoveryAfterSecondHangMs)}   (killed right after a first)`,
      '',
    ].join('\n'),
  );
}

async function benchBrowser(): Promise<SandboxFigures> {
  const rig = await startRig();
  try {
    const page = await rig.open('/tests/bench/bench-page.html');
    await page.waitForFunction('typeof window.spadeBench === "function"');
    const boots = await measureBrowserBoots(
      (count) => page.evaluate(`window.spadeBoots(${count})`) as Promise<number[]>,
    );
    process.stdout.write(
      [
        'Browser interpreter start (one frame, Pyodide compiled once; spawn to sealed and ready, one at a time)',
        `  median                        ${boots.medianMs.toFixed(0)} ms   CPU ${boots.cpuSecondsEach.toFixed(1)} s each (the whole machine's)`,
        '',
      ].join('\n'),
    );
    return (await page.evaluate('window.spadeBench()')) as SandboxFigures;
  } finally {
    await rig.close();
  }
}

// The Node sandbox as shipped (interpreters restored from the shared snapshot) beside cold-started ones.
const coldNodeRuntime = () =>
  new PyodideSandboxRuntime((signal) => spawnNodeSandbox('cold', signal), {
    spares: Math.min(4, availableParallelism()),
  });

const only = process.argv[2];
if (!only || only === 'node') {
  const boots = await measureBoots({ cold: () => spawnNodeSandbox('cold'), snapshot: () => spawnNodeSandbox() }, () =>
    performance.now(),
  );
  process.stdout.write(
    [
      'Node interpreter start (spawn to sealed and ready, one at a time, alternating)',
      `  cold start median             ${boots.cold.toFixed(0)} ms`,
      `  from the snapshot median      ${boots.snapshot.toFixed(0)} ms   (${(boots.cold / boots.snapshot).toFixed(1)}x faster)`,
      '',
    ].join('\n'),
  );
  print(
    'Node (cold-started interpreters)',
    await measureSandbox(coldNodeRuntime, EXAMPLE_ENV, () => performance.now()),
  );
  print(
    'Node (interpreters from the snapshot)',
    await measureSandbox(
      () => createNodeSandboxRuntime(),
      EXAMPLE_ENV,
      () => performance.now(),
    ),
  );
}
if (only === 'recovery') {
  // `recovery N`: only the recovery after hangs, N rounds (default 5) with the Node sandbox as shipped.
  const { measureRecovery } = await import('./measure-sandbox.ts');
  const r = await measureRecovery(
    () => createNodeSandboxRuntime(),
    EXAMPLE_ENV,
    () => performance.now(),
    Number(process.argv[3] ?? 5),
  );
  process.stdout.write(
    [
      `Recovery after hangs (Node sandbox from the snapshot, ${r.rounds} rounds)`,
      `  after a killed hang median    ${r.afterHangMedianMs.toFixed(0)} ms`,
      `  after a second hang median    ${r.afterSecondHangMedianMs.toFixed(0)} ms   worst ${r.afterSecondHangMaxMs.toFixed(0)} ms   (killed right after a first)`,
      '',
    ].join('\n'),
  );
}
if (!only || only === 'boots') {
  const { formatBootTiering } = await import('./boot-tiering.ts');
  process.stdout.write(await formatBootTiering());
}
if (!only || only === 'transport') {
  const { formatTransportSplit, measureTransportSplit } = await import('./transport-split.ts');
  process.stdout.write(formatTransportSplit(await measureTransportSplit()));
}
if (!only || only === 'browser') print('Browser (Chromium)', await benchBrowser());
if (!only || only === 'epoch') {
  for (const [name, create] of [
    ['cold-started interpreters', coldNodeRuntime],
    ['interpreters from the snapshot', () => createNodeSandboxRuntime()],
  ] as const) {
    const e = await measureEpochOverhead(5, create);
    process.stdout.write(
      [
        `Epoch overhead (zero-latency scripted model, Node sandbox, ${name})`,
        `  epoch median                  ${e.medianEpochMs.toFixed(0)} ms   (${e.epochs} epochs, ${e.episodesPerEpoch} episodes and ${e.stepsPerEpoch} steps each)`,
        `  share outside the model       ${(100 * e.medianOutsideModelShare).toFixed(1)} %`,
        '',
      ].join('\n'),
    );
  }
}
if (!only || only === 'eval') {
  const { measureEvalOverhead } = await import('./eval-overhead.ts');
  const e = await measureEvalOverhead();
  process.stdout.write(
    [
      'Held-out evaluation overhead (built-in suite, zero-latency model, Node sandbox from the snapshot)',
      `  per suite environment         ${e.perEnvironmentMs.toFixed(0)} ms   (${e.environments} environments, ${e.episodes} episodes, ${(e.totalMs / 1000).toFixed(1)} s in all)`,
      '',
    ].join('\n'),
  );
}
if (!only || only === 'store' || only === 'store-node' || only === 'store-browser') {
  const { baseEpoch, formatStoreFigures, measureStoreBrowser, measureStoreNode } = await import('./store-bench.ts');
  const base = await baseEpoch();
  if (only !== 'store-browser')
    process.stdout.write(formatStoreFigures('Node, fake-indexeddb', await measureStoreNode(base)));
  if (only !== 'store-node')
    process.stdout.write(formatStoreFigures('Chromium, real IndexedDB', await measureStoreBrowser(base)));
}
if (!only || only === 'cpu') {
  const { formatCpuThreads, measureCpuThreads } = await import('./cpu-threads.ts');
  process.stdout.write(formatCpuThreads(await measureCpuThreads()));
}
if (!only || only === 'concurrency') {
  const { formatConcurrencyFigures, measureConcurrency } = await import('./concurrency-bench.ts');
  // `concurrency fake`, `node` or `browser` (or two of them) runs those sandboxes; `tab` or `reference` one scale; `full` also runs the reference scale at concurrency 1.
  const pick = <T extends string>(all: readonly T[]) =>
    all.filter((x) => !all.some((y) => process.argv.slice(3).includes(y)) || process.argv.slice(3).includes(x));
  const scales = { tab: { slots: 4, plays: 4, concurrency: 16 }, reference: { slots: 24, plays: 8, concurrency: 32 } };
  for (const scale of pick(['tab', 'reference'] as const)) {
    for (const kind of pick(['fake', 'node', 'browser'] as const)) {
      process.stdout.write(
        formatConcurrencyFigures(
          await measureConcurrency(
            `${scale} scale`,
            scales[scale],
            300,
            kind,
            scale === 'reference' && !process.argv.includes('full'),
          ),
        ),
      );
    }
  }
}
if (only === 'import') {
  // Sizes of the distinct valid pools (default 20 and 100), and `copies=K` for the broken file's copies (default 5,001).
  const { formatImportFigures, measureImports } = await import('./import-bench.ts');
  const args = process.argv.slice(3);
  const sizes = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const copies = Number(/^copies=(\d+)$/.exec(args.find((a) => a.startsWith('copies=')) ?? '')?.[1] ?? 5001);
  process.stdout.write('Import (spade import of a folder, real Node sandbox from the snapshot)\n');
  await measureImports(sizes.length > 0 ? sizes : [20, 100], copies, (figures) =>
    process.stdout.write(formatImportFigures(figures)),
  );
}
if (!only || only === 'compare') {
  const { formatCompareFigures, measureCompareView } = await import('./compare-bench.ts');
  process.stdout.write(formatCompareFigures(await measureCompareView()));
}
if (!only || only === 'firstview') {
  const { formatFirstView, measureFirstView } = await import('./first-view.ts');
  process.stdout.write(formatFirstView(await measureFirstView()));
}
if (only === 'start') {
  // `start N`: a fresh page's Python start phase by phase, N rounds (default 3).
  const { formatStartPhases, measureStartPhases } = await import('./start-phases.ts');
  process.stdout.write(formatStartPhases(await measureStartPhases(Number(process.argv[3] ?? 3))));
}
if (!only || only === 'ready') {
  const { formatPythonReady, measurePythonReady } = await import('./python-ready.ts');
  process.stdout.write(formatPythonReady(await measurePythonReady()));
}
if (!only || only === 'prefix') {
  const { formatPrefixFigures, measureDemoPrefixes } = await import('./prefix-bench.ts');
  for (const figures of await measureDemoPrefixes()) process.stdout.write(formatPrefixFigures(figures));
}
if (!only || only === 'prompts') {
  const { formatPromptBudgets, measurePromptBudgets } = await import('./prompt-budget-bench.ts');
  process.stdout.write(formatPromptBudgets(await measurePromptBudgets()));
}
