import type { SweepCell } from './sweep-grid.ts';

/** What every cell of a sweep runs with besides its own settings. */
export interface SweepRunOptions {
  /** The `--model` spec, e.g. `openai:http://localhost:8080/v1#qwen`. */
  model: string;
  epochs: number;
  /** The sweep's folder; each cell runs in a folder of its own name inside it. */
  out: string;
  /** Further `spade run` flags given to every cell, as separate words (`['--slots', '8']`). */
  shared?: readonly string[];
}

/** The folder a cell's run is written to. */
export function cellDirectory(cell: SweepCell, out: string): string {
  return `${out.replace(/\/+$/, '')}/${cell.name}`;
}

/** The words after `spade` that run one cell: `run --model .. --epochs .. --out DIR/NAME --seed S`, the shared flags, then the cell's. */
export function sweepRunArgs(cell: SweepCell, options: SweepRunOptions): string[] {
  return [
    'run',
    '--model',
    options.model,
    '--epochs',
    String(options.epochs),
    '--out',
    cellDirectory(cell, options.out),
    '--seed',
    String(cell.seed),
    ...(options.shared ?? []),
    ...cell.args,
  ];
}

/** A word as a POSIX shell reads it back unchanged: bare when it is safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-][A-Za-z0-9_@%+=:,./#-]*$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** One shell line per cell that runs it from the project folder: `npm run --silent spade -- run ...`. */
export function sweepCommands(cells: readonly SweepCell[], options: SweepRunOptions): string[] {
  return cells.map((cell) =>
    ['npm', 'run', '--silent', 'spade', '--', ...sweepRunArgs(cell, options)].map(shellWord).join(' '),
  );
}
