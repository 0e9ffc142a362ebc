// `npm run bench -- import [N...]`: wall time, CPU time and games per second of `spade import` with
// the real Node sandbox, for a synthetic pool of N distinct valid games and for 5,001 copies of one
// broken file (a module that raises when it runs, so every copy would need an interpreter).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { runImport } from '../../src/cli/import-command.ts';

/** Figures of one import. */
export interface ImportFigures {
  label: string;
  entries: number;
  imported: number;
  wallMs: number;
  /** CPU seconds of this process and of its reaped sandbox children. */
  cpuSeconds: number;
}

const TICKS_PER_SECOND = 100;

// User + system CPU seconds of this process and its reaped children (Linux proc(5): fields 14-17).
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return [14, 15, 16, 17].reduce((sum, field) => sum + Number(fields[field - 3]), 0) / TICKS_PER_SECOND;
}

/** A small valid game whose name, target length and turn count depend on `i`, so every one is distinct code. */
export function syntheticGame(i: number): string {
  const digits = 2 + (i % 4);
  return `class Guess${i}Env:
    """Guess a ${digits}-digit code; each guess says how many digits are in place (game ${i})."""

    def __init__(self, max_turns=${8 + (i % 5)}):
        self.max_turns = max_turns
        self.turns = 0
        self.code = "0" * ${digits}

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.code = "".join(str(rng.randint(0, 9)) for _ in range(${digits}))
        self.turns = 0
        return "Guess the ${digits}-digit code, like \\\\boxed{${'1'.repeat(digits)}}.", {}

    def step(self, action):
        self.turns += 1
        match = re.search(r"\\\\boxed\\{([^{}]*)\\}", action)
        guess = (match.group(1) if match else action).strip()
        truncated = self.turns >= self.max_turns
        if len(guess) != ${digits} or not guess.isdigit():
            return "Send ${digits} digits.", 0.0, False, truncated, {}
        hits = sum(a == b for a, b in zip(guess, self.code))
        if hits == ${digits}:
            return "Correct.", 1.0, True, False, {}
        return f"{hits} in place.", 0.0, False, truncated, {}
`;
}

/** A file that parses and names an Env class but raises as its module runs. */
export const BROKEN_GAME = `class BrokenEnv:
    def reset(self, seed=None):
        return "x", {}

    def step(self, action):
        return "x", 0.0, True, False, {}

raise RuntimeError("this pool entry is broken")
`;

async function timedImport(label: string, files: ReadonlyArray<[string, string]>): Promise<ImportFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'spade-import-bench-'));
  const pool = join(dir, 'pool');
  mkdirSync(pool);
  for (const [name, code] of files) writeFileSync(join(pool, name), code);
  const runtime = createNodeSandboxRuntime();
  const lines: string[] = [];
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  try {
    await runImport(
      [pool, '--out', join(dir, 'out')],
      () => runtime,
      (line) => lines.push(line),
    );
  } finally {
    await runtime.close();
  }
  const wallMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpu = cpuSeconds() - cpuBefore;
  rmSync(dir, { recursive: true, force: true });
  const summary = lines.find((line) => line.startsWith('imported ')) ?? '';
  const imported = Number(/^imported (\d+)/.exec(summary)?.[1] ?? 0);
  return { label, entries: files.length, imported, wallMs, cpuSeconds: cpu };
}

/** Imports N distinct valid games for each N, then `copies` copies of one broken file; each figure goes to `report` as soon as it is measured. */
export async function measureImports(
  sizes: readonly number[],
  copies: number,
  report: (figures: ImportFigures) => void,
): Promise<void> {
  for (const n of sizes) {
    const games = Array.from({ length: n }, (_, i): [string, string] => [
      `game_${String(i).padStart(5, '0')}.py`,
      syntheticGame(i),
    ]);
    report(await timedImport(`${n} distinct valid games`, games));
  }
  if (copies > 0) {
    const broken = Array.from({ length: copies }, (_, i): [string, string] => [
      `broken_${String(i).padStart(5, '0')}.py`,
      BROKEN_GAME,
    ]);
    report(await timedImport(`${copies} copies of one broken file`, broken));
  }
}

/** One import's figures as a report line. */
export function formatImportFigures(f: ImportFigures): string {
  const perSecond = f.entries / (f.wallMs / 1000);
  return `  ${f.label.padEnd(34)}${(f.wallMs / 1000).toFixed(1)} s wall   CPU ${f.cpuSeconds.toFixed(1)} s   ${perSecond.toFixed(1)} games/s   (${f.imported} imported)\n`;
}
