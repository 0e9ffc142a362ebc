import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_OVER_FAKES, nodeTestTiers } from './tiers.ts';
import { tempDir } from './fixtures/temp-dirs.ts';

const ROOT = resolve(import.meta.dirname, '..');

function tree(files: Record<string, string>): string {
  const root = tempDir('spade-tiers-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('test tiers', () => {
  it('puts a file in the integration tier when it, or a local helper it imports, starts Python or a process', () => {
    const root = tree({
      'tests/core/pure.test.ts': "import { x } from '../../src/core/x.ts';\n",
      'tests/core/direct.test.ts':
        "import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';\n",
      'tests/core/helper.test.ts': "import { helper } from '../fixtures/helper.ts';\n",
      'tests/fixtures/helper.ts': "export { thing } from './deeper.ts';\n",
      'tests/fixtures/deeper.ts': "import { spawn } from 'node:child_process';\n",
      // Split so this file's own scan does not read it as a dynamic import of the CLI.
      'tests/cli/cli.test.ts': 'const { runRun } = await imp' + "ort('../../src/cli/run-command.ts');\n",
      'tests/app/fixture-process.test.ts': "import { pids } from '../fixtures/sandbox/pids.ts';\n",
      'tests/app/cycle.test.ts': "import { a } from './a.ts';\n",
      'tests/app/a.ts': "import { b } from './b.ts';\n",
      'tests/app/b.ts': "import { a } from './a.ts';\n",
      'tests/browser/page.test.ts': "import { spawn } from 'node:child_process';\n",
    });
    expect(nodeTestTiers(root)).toEqual({
      unit: ['tests/app/cycle.test.ts', 'tests/core/pure.test.ts'],
      integration: [
        'tests/app/fixture-process.test.ts',
        'tests/cli/cli.test.ts',
        'tests/core/direct.test.ts',
        'tests/core/helper.test.ts',
      ],
    });
  });

  it('puts a file that drives the CLI only over fakes in the unit tier, unless it imports something else heavy; type-only imports never count', () => {
    const root = tree({
      'tests/cli/over-fakes.test.ts': `${CLI_OVER_FAKES}\nimport { runCli } from '../../src/cli/cli.ts';\nimport type { Result } from './spade-cli.ts';\n`,
      'tests/cli/fakes-and-process.test.ts': `${CLI_OVER_FAKES}\nimport { runCli } from '../../src/cli/cli.ts';\nimport { spawnSync } from 'node:child_process';\n`,
      'tests/cli/fakes-and-sandbox.test.ts': `${CLI_OVER_FAKES}\nimport { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';\n`,
      'tests/cli/fakes-and-helper.test.ts': `${CLI_OVER_FAKES}\nimport { inProcess } from './spade-cli.ts';\n`,
      'tests/cli/unmarked.test.ts': "import { runCli } from '../../src/cli/cli.ts';\n",
      'tests/cli/type-only.test.ts': "import type { Result } from './spade-cli.ts';\n",
      'tests/cli/spade-cli.ts': "import { spawnSync } from 'node:child_process';\nexport type Result = number;\n",
    });
    expect(nodeTestTiers(root)).toEqual({
      unit: ['tests/cli/over-fakes.test.ts', 'tests/cli/type-only.test.ts'],
      integration: [
        'tests/cli/fakes-and-helper.test.ts',
        'tests/cli/fakes-and-process.test.ts',
        'tests/cli/fakes-and-sandbox.test.ts',
        'tests/cli/unmarked.test.ts',
      ],
    });
  });

  it('sorts every Node test file of this project into exactly one tier, the sandbox and CLI tests into integration', () => {
    const { unit, integration } = nodeTestTiers(ROOT);
    expect(unit.filter((file) => integration.includes(file))).toEqual([]);
    expect(unit).toContain('tests/core/scoring/scoring.test.ts');
    expect(unit).toContain('tests/app/run-controller.test.ts');
    expect(integration).toContain('tests/adapters/sandbox/node-sandbox-escape.test.ts');
    expect(integration).toContain('tests/cli/verify.test.ts');
    expect(unit).toContain('tests/cli/run-folder.test.ts');
    expect(integration).toContain('tests/core/env/validate-env.test.ts');
    expect([...unit, ...integration].some((file) => file.startsWith('tests/browser/'))).toBe(false);
  });
});
