// Vitest runs the longest files first only when the results cache of an earlier run says which
// they are; a fresh clone (CI) has no cache, so vitest starts the largest files first and can
// leave a long browser file for the end of its phase, with the other workers idle. Measured on
// a fresh clone: app-experiments, the longest, finished sixteenth of 24 browser files (126 s),
// and two other long ones last. The files listed here start first within their project, in this
// order, whatever the cache says; the others follow in vitest's order. The list only orders
// files: a file missing from it still runs.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The longest test files of full runs on a 2-core machine, longest first (paths from the project root; measured 2026-12-05). */
export const LONGEST_FIRST: readonly string[] = [
  'tests/browser/app-snapshot-hosts.test.ts',
  'tests/browser/sandbox-snapshot.test.ts',
  'tests/browser/app-demo.test.ts',
  'tests/browser/app-openai.test.ts',
  'tests/browser/app-build.test.ts',
  'tests/browser/app-resume.test.ts',
  'tests/browser/wllama-engine.test.ts',
  'tests/browser/app-lecture.test.ts',
  'tests/browser/app-experiments.test.ts',
  'tests/browser/sandbox-isolation-python.test.ts',
  'tests/browser/sandbox-isolation-js.test.ts',
  'tests/browser/app-second-tab.test.ts',
  'tests/browser/app-offline.test.ts',
  'tests/browser/explorer-10k.test.ts',
  'tests/browser/env-page-seeded.test.ts',
  'tests/browser/wllama-epoch.test.ts',
  'tests/core/env/validate-env.test.ts',
  'tests/suites/builtin-suite.test.ts',
  'tests/adapters/sandbox/node-sandbox.test.ts',
  'tests/core/loop/demo-script.test.ts',
  'tests/adapters/sandbox/node-sandbox-lifecycle.test.ts',
  'tests/adapters/sandbox/node-sandbox-forgery.test.ts',
  'tests/core/loop/learning-demo.test.ts',
  'tests/suites/bundled-games-challenge.test.ts',
  'tests/core/env/validation-whitelist.test.ts',
  'tests/cli/export-import.test.ts',
];

/** Orders `paths` (from the project root) as the sequencer orders one project's files: those of LONGEST_FIRST first, in its order, then the rest as given. */
export function longestFirst(paths: readonly string[]): string[] {
  const rank = (path: string) => {
    const at = LONGEST_FIRST.indexOf(path);
    return at === -1 ? LONGEST_FIRST.length : at;
  };
  return paths
    .map((path, index) => ({ path, index }))
    .sort((a, b) => rank(a.path) - rank(b.path) || a.index - b.index)
    .map(({ path }) => path);
}

/** Vitest's order (phases, then projects), except that within a project the files of LONGEST_FIRST start first. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of sorted) {
      const specs = byProject.get(spec.project.name) ?? [];
      specs.push(spec);
      byProject.set(spec.project.name, specs);
    }
    return [...byProject.values()].flatMap((specs) => {
      const byPath = new Map(specs.map((spec) => [relative(this.ctx.config.root, spec.moduleId), spec]));
      return longestFirst([...byPath.keys()]).map((path) => byPath.get(path)!);
    });
  }
}
