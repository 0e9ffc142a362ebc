// The command line's conventions, with no sandbox at all (a factory that counts and fails): help
// and the version on standard output with exit 0, one help per command listing the flags its
// parser takes, and unknown flags refused before a sandbox is made.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, runCliWithSandbox, type ClosableSandbox } from '../../src/cli/cli.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { commandHelp, optionsOf, usageHint } from '../../src/cli/help.ts';
import { spadeSubprocess } from './spade-cli.ts';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const NAMES = Object.keys(COMMANDS);
const NOWHERE = '/nonexistent/spade-help-test';

/** `spade` as main.ts runs it, over a sandbox factory that counts its calls and never makes one. */
async function spade(...argv: string[]) {
  let made = 0;
  const out: string[] = [];
  let stderr = '';
  const status = await runCliWithSandbox(
    argv,
    (): ClosableSandbox => {
      made += 1;
      throw new Error('this test makes no sandbox');
    },
    (line) => out.push(line),
    (text) => (stderr += text),
  );
  return { status, stdout: out.join('\n'), stderr, made };
}

describe('spade --help and --version', () => {
  it('print the overview of every command on standard output and exit 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const result = await spade(flag);
      expect(result, flag).toMatchObject({ status: 0, stderr: '', made: 0 });
      for (const name of NAMES)
        expect(result.stdout, name).toMatch(
          new RegExp(`\\n  ${name} +${COMMANDS[name]!.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`),
        );
      expect(result.stdout).toContain(`SPADE Lab ${VERSION}`);
    }
  });

  it('print the overview on standard error with exit 2 when no command is given', async () => {
    const result = await spade();
    expect(result).toMatchObject({ status: 2, stdout: '', made: 0 });
    expect(result.stderr).toContain('commands:\n  validate');
  });

  it('print the package version', async () => {
    for (const flag of ['--version', '-V'])
      expect(await spade(flag), flag).toEqual({ status: 0, stdout: `spade-lab ${VERSION}`, stderr: '', made: 0 });
  });
});

describe('each command', () => {
  it('has its own help, on standard output with exit 0, from --help, -h and help COMMAND, before any sandbox is made', async () => {
    for (const name of NAMES) {
      const help = commandHelp(name, COMMANDS[name]!);
      for (const argv of [
        [name, '--help'],
        [name, '-h'],
        ['help', name],
        [name, '--json', '-h', 'file.py'],
      ]) {
        expect(await spade(...argv), argv.join(' ')).toEqual({ status: 0, stdout: help, stderr: '', made: 0 });
      }
    }
    expect(await spade('help', 'frobnicate')).toMatchObject({
      status: 2,
      stdout: '',
      stderr: `unknown command: frobnicate; expected one of ${NAMES.join(', ')}\n${usageHint()}\n`,
    });
  });

  it('lists every flag its parser takes, one line each with its help, and no other', async () => {
    for (const name of NAMES) {
      const help = commandHelp(name, COMMANDS[name]!);
      const options = optionsOf(COMMANDS[name]!);
      const listed = [...help.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1]);
      expect(listed, name).toEqual(Object.keys(options));
      for (const [flag, spec] of Object.entries(options)) {
        expect(spec.help, `${name} --${flag}`).toMatch(/^\S[^\n]*\S$/);
        expect(
          help
            .split('\n')
            .filter(
              (line) =>
                line.startsWith(`  --${flag}${spec.value ? ` ${spec.value}` : ''} `) && line.endsWith(spec.help),
            ),
          `${name} --${flag}`,
        ).toHaveLength(1);
      }
    }
  });

  it('parses every flag its help lists: none of them is refused as unknown', async () => {
    for (const name of NAMES) {
      for (const [flag, spec] of Object.entries(optionsOf(COMMANDS[name]!))) {
        let stderr = '';
        let started = 0;
        const io = {
          runtime: () => {
            throw new Error('no sandbox here');
          },
          startSandbox: () => void (started += 1),
          out: () => undefined,
          err: (text: string) => (stderr += text),
        };
        await runCli([name, `--${flag}`, ...(spec.type === 'string' ? [NOWHERE] : [])], io);
        expect(stderr, `${name} --${flag}`).not.toContain('unknown flag');
        expect(started, `${name} --${flag}`).toBeLessThanOrEqual(COMMANDS[name]!.python ? 1 : 0);
      }
    }
  });

  it('refuses an unknown flag, naming it and the command help, with exit 2 and no sandbox made (Python commands too)', async () => {
    for (const name of NAMES) {
      for (const argv of [
        [name, '--bogus'],
        [name, 'file.py', '--bogus', '--json'],
        [name, '-x'],
      ]) {
        const flag = argv.find((word) => word === '--bogus' || word === '-x');
        expect(await spade(...argv), argv.join(' ')).toEqual({
          status: 2,
          stdout: '',
          stderr: `unknown flag ${flag}\n${usageHint(name)}\n`,
          made: 0,
        });
      }
    }
    expect(await spade('run', '--model', 'scripted:x', '--out', NOWHERE, '--slots')).toMatchObject({
      status: 2,
      stderr: `Option '--slots <value>' argument missing\n${usageHint('run')}\n`,
      made: 0,
    });
    expect(await spade('--bogus')).toMatchObject({
      status: 2,
      stdout: '',
      stderr: `unknown flag: --bogus; expected one of ${NAMES.join(', ')}\n${usageHint()}\n`,
      made: 0,
    });
  });
});

describe('spade as a process', () => {
  it('prints run --help on standard output and exits 0', () => {
    const result = spadeSubprocess('run', '--help');
    expect(result).toEqual({ status: 0, stdout: `${commandHelp('run', COMMANDS.run!)}\n`, stderr: '' });
  });
});
