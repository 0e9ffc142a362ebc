import { GAME_SKILLS, TOOL_USE_SKILLS, type RunSetting } from '../../core/skills.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import { baseName, dirName } from './files.ts';

/**
 * The line SPADE's trainer puts before every generated game it saves
 * (spade/core/utils/game_files.py, save_game_file), followed by one empty line.
 */
export const POOL_HEADER = '"""SPADE self-play generated game"""\n\n';
/** Folder of the game files inside a pool (the released pools' `games/`). */
export const POOL_GAMES_DIR = 'games';
/** The checksum file at the pool's root, in `sha256sum` format, checked with `sha256sum -c checksums.sha256`. */
export const POOL_CHECKSUMS = 'checksums.sha256';
/** One JSON object per game: the released pools' columns plus this app's statistics. */
export const POOL_MANIFEST = 'manifest.jsonl';

/** `game_000000.py`: a pool file name, numbered from 0 with six digits as in the released pools. */
export function poolFileName(index: number): string {
  return `game_${String(index).padStart(6, '0')}.py`;
}

/** A skill as the reference writes it in file names and pool rows: lower case, spaces to underscores; any other character but a-z, 0-9 and `-` becomes `_` too, so an imported skill like `x/../../y` never makes a path. */
export function skillSlug(skill: string): string {
  return skill
    .toLowerCase()
    .replaceAll(' ', '_')
    .replace(/[^a-z0-9_-]/g, '_');
}

/** The skill name for a slug: one of the game or tool-use skills when it matches, else the slug in title case. */
export function skillFromSlug(slug: string): string {
  const known = [...Object.keys(GAME_SKILLS), ...Object.keys(TOOL_USE_SKILLS)].find(
    (skill) => skillSlug(skill) === slug.toLowerCase(),
  );
  if (known) return known;
  return slug
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** The setting an environment belongs to: tool use when it has a domain or its validation found tools in `get_tools()`, else games. */
export function settingOfRecord(env: Pick<EnvironmentRecord, 'domain' | 'attempts'>): RunSetting {
  return env.domain !== undefined || env.attempts.some((a) => a.validation.ok && a.validation.toolUse === true)
    ? 'tool_use'
    : 'games';
}

/** The name SPADE's trainer gives a game it generated: `game_{epoch:05d}_{slot:03d}_{skill_slug}.py`. */
export function referenceFileName(epoch: number, slot: number, skill: string): string {
  return `game_${String(epoch).padStart(5, '0')}_${String(slot).padStart(3, '0')}_${skillSlug(skill)}.py`;
}

/** The skill slug in a reference file name (`game_00003_002_logical_deduction.py`), or null. */
export function skillSlugOfFileName(name: string): string | null {
  return /^game_\d+_\d+_([a-z0-9_]+)\.py$/.exec(baseName(name))?.[1] ?? null;
}

/** A pool file's text: the header line, an empty line, then the code. */
export function poolFileText(code: string): string {
  return POOL_HEADER + code;
}

/** The code of a pool file (its text without the header, when present). */
export function stripPoolHeader(text: string): string {
  return text.startsWith(POOL_HEADER) ? text.slice(POOL_HEADER.length) : text;
}

/** One line of a `sha256sum` file: hash, two spaces, path, newline. */
export function checksumLine(sha256: string, path: string): string {
  return `${sha256}  ${path}\n`;
}

/**
 * Parses a `sha256sum` file (text `hash  path` or binary `hash *path` lines) into a map from
 * path, resolved against the checksum file's folder, to hash. Bad lines are returned by number.
 */
export function parseChecksums(text: string, checksumPath: string): { sums: Map<string, string>; badLines: number[] } {
  const base = dirName(checksumPath);
  const sums = new Map<string, string>();
  const badLines: number[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const match = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (!match) {
      badLines.push(index + 1);
      return;
    }
    const path = match[2]!.replace(/^\.\//, '');
    sums.set(base ? `${base}/${path}` : path, match[1]!.toLowerCase());
  });
  return { sums, badLines };
}

/** Number of lines of a text, as Python's `len(text.splitlines())` counts them for `\n` line ends. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
