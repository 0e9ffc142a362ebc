import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { COMPARE_OPTIONS, runCompare } from './compare-command.ts';
import { CONFIG_FLAG_SECTIONS } from './config-flags.ts';
import { EVAL_OPTIONS, runEval } from './eval-command.ts';
import { EXPORT_OPTIONS, runExport } from './export-command.ts';
import type { CommandHelp, FlagSection } from './help.ts';
import { IMPORT_OPTIONS, runImport } from './import-command.ts';
import { PLAY_OPTIONS, runPlay } from './play-command.ts';
import { RUN_OPTIONS, runRun } from './run-command.ts';
import { runSweep, SWEEP_OPTIONS, SWEEP_RUN_OPTIONS } from './sweep-command.ts';
import { runValidate, VALIDATE_OPTIONS } from './validate-command.ts';
import { runVerify, VERIFY_OPTIONS } from './verify-command.ts';

/** One command's work: its arguments, the sandbox it may start, where its lines go, and where warnings go when its output is machine-read. */
export type CommandRun = (
  argv: string[],
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
  warn?: (line: string) => void,
) => Promise<number>;

/** A command: its help (whose flags are also the table its arguments are parsed with), whether it runs Python, and its work. */
export interface Command extends CommandHelp {
  /** It runs Python: its sandbox starts booting as soon as its arguments parse, before it reads its input. */
  python: boolean;
  run: CommandRun;
}

const flags = (options: FlagSection['options']): FlagSection[] => [{ title: 'flags', options }];

// The config table's flags, titled by the form's group they belong to.
const configSections: FlagSection[] = CONFIG_FLAG_SECTIONS.map(({ title, options }) => ({
  title: `${title} (config table)`,
  options,
}));

/** Every `spade` command, in the order the overview lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  validate: {
    synopsis: '<file.py>... [flags]',
    summary: "Judge environment files with SPADE's validator, each exactly as written; exit 1 when any is invalid",
    sections: flags(VALIDATE_OPTIONS),
    python: true,
    run: runValidate,
  },
  play: {
    synopsis: "<file.py> --actions 'A|B|C' [flags]",
    summary: 'Play actions in an environment file and print the transcript and the return',
    sections: flags(PLAY_OPTIONS),
    python: true,
    run: runPlay,
  },
  run: {
    synopsis: '--model SPEC --out DIR [flags]',
    summary: 'Run SPADE epochs and write the run files',
    sections: [...flags(RUN_OPTIONS), ...configSections],
    python: true,
    run: runRun,
  },
  eval: {
    synopsis: '--run DIR [flags]',
    summary: "Evaluate a run's agent on a held-out suite and append the result to the run's evals.jsonl",
    sections: flags(EVAL_OPTIONS),
    python: true,
    run: runEval,
  },
  compare: {
    synopsis: 'DIR... [flags]',
    summary: "Show the settings that differ between runs and each run's final figures",
    sections: flags(COMPARE_OPTIONS),
    python: false,
    run: runCompare,
  },
  sweep: {
    synopsis: "--model SPEC --grid 'KEY=A,B;KEY2=C,D' --out DIR [flags]",
    summary:
      'Run one run per grid cell and seed (finished cells skipped, unfinished ones continued), then compare them',
    sections: [
      ...flags(SWEEP_OPTIONS),
      { title: "run flags, given to every cell's spade run", options: SWEEP_RUN_OPTIONS },
      ...configSections,
    ],
    python: true,
    run: runSweep,
  },
  export: {
    synopsis: '--run DIR --format FORMAT --out FILE',
    summary: 'Export a run directory as a pool, rollout rows, metrics or a run archive',
    sections: flags(EXPORT_OPTIONS),
    python: false,
    run: runExport,
  },
  import: {
    synopsis: 'FILE|FOLDER --out DIR [flags]',
    summary: 'Import a pool, pool rows, a run archive or a corpus into a run directory, validating every environment',
    sections: flags(IMPORT_OPTIONS),
    python: true,
    run: runImport,
  },
  verify: {
    synopsis: '--run DIR [flags]',
    summary: "Recompute a run's returns, stats, rewards and advantages from its turns; exit 1 on any mismatch",
    sections: flags(VERIFY_OPTIONS),
    python: false,
    run: runVerify,
  },
};
