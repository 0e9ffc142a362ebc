// Checks that a reformat of the Svelte markup (say `npx prettier --write .` after a printWidth change) left
// what every component renders unchanged, against a git revision (HEAD unless given):
//   npx tsx scripts/check-markup-rewrap.ts [REVISION]
// Exits 1 when a component renders differently (scripts/markup-rewrap.ts says how it compares); it also
// lists, for a person to look at, moved line breaks in components that show whitespace.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compareRewrap } from './markup-rewrap.ts';

const revision = process.argv[2] ?? 'HEAD';
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const changed = git('diff', '--name-only', revision, '--', '*.svelte').split('\n').filter(Boolean);
const rendered: string[] = [];
const whitespace: string[] = [];
for (const file of changed) {
  const before = git('show', `${revision}:${file}`);
  const report = compareRewrap(before, readFileSync(file, 'utf8'), file);
  rendered.push(...report.rendered);
  whitespace.push(...report.whitespace);
}
process.stdout.write(
  `${changed.length} Svelte files differ from ${revision}; ${rendered.length} rendered differences\n`,
);
for (const line of rendered) process.stdout.write(`rendered differently: ${line}\n`);
for (const line of whitespace)
  process.stdout.write(
    `line break moved in a component that shows whitespace (check it is outside <pre>, <textarea> and pre-wrap elements): ${line}\n`,
  );
process.exitCode = rendered.length > 0 ? 1 : 0;
