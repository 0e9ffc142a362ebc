import type { OptionTable } from './args.ts';

/** How the command line is started from a checkout. */
export const SPADE = 'npm run --silent spade --';

/** A titled group of a command's flags. */
export interface FlagSection {
  title: string;
  options: OptionTable;
}

/** What a command's help and its parser read: its usage, its one-line summary and its flags. */
export interface CommandHelp {
  /** What follows the command's name in its usage line, e.g. `<file.py>... [flags]`. */
  synopsis: string;
  /** What the command does, one line. */
  summary: string;
  /** Its flags in titled groups, the order its help lists them. */
  sections: readonly FlagSection[];
}

/** Every flag of a command, merged from its sections: the table its arguments are parsed with. */
export function optionsOf(help: CommandHelp): OptionTable {
  return Object.assign({}, ...help.sections.map((section) => section.options)) as OptionTable;
}

/** The flag `help` and `-h` that every command takes besides its own. */
export const HELP_FLAG = '-h, --help';

/** Rows of [name, text] as lines with the texts in one column, at most 34 characters in (a longer name keeps its text after two spaces). */
function columns(
  rows: ReadonlyArray<[string, string]>,
  names: readonly string[] = rows.map(([name]) => name),
): string[] {
  const width = Math.min(34, Math.max(...names.map((name) => name.length)) + 2);
  return rows.map(([name, text]) => `  ${name.length + 2 <= width ? name.padEnd(width) : `${name}  `}${text}`);
}

/** A flag's name in the help, with its value's name: `--slots N`. */
const flagRows = (options: OptionTable): Array<[string, string]> =>
  Object.entries(options).map(([flag, spec]) => [`--${flag}${spec.value ? ` ${spec.value}` : ''}`, spec.help]);

/** A command's help: its usage line, summary, and one line per flag, grouped as its sections are, the texts in one column. */
export function commandHelp(name: string, help: CommandHelp): string {
  const names = [HELP_FLAG, ...help.sections.flatMap((section) => flagRows(section.options).map(([flag]) => flag))];
  const lines = [`usage: ${SPADE} ${name} ${help.synopsis}`, '', `${help.summary}.`];
  for (const section of help.sections)
    lines.push('', `${section.title}:`, ...columns(flagRows(section.options), names));
  lines.push('', ...columns([[HELP_FLAG, 'print this help and exit']], names));
  return lines.join('\n');
}

/** The help of `spade` itself: every command with its summary, and where each command's flags are. */
export function overviewHelp(commands: Readonly<Record<string, CommandHelp>>, version: string): string {
  return [
    `SPADE Lab ${version}: SPADE self-play from the command line`,
    '',
    `usage: ${SPADE} <command> [flags]`,
    '',
    'commands:',
    ...columns(Object.entries(commands).map(([name, help]) => [name, help.summary])),
    '',
    ...columns([
      [HELP_FLAG, 'print this help and exit'],
      ['-V, --version', 'print the version and exit'],
    ]),
    '',
    `Each command lists its flags with \`${SPADE} <command> --help\`.`,
  ].join('\n');
}

/** The line that follows a usage error instead of any usage text: where the command's help is. */
export function usageHint(command?: string): string {
  return `see \`${SPADE} ${command === undefined ? '' : `${command} `}--help\``;
}
