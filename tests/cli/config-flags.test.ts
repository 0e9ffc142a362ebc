// Test tier: unit (the CLI over fakes only: no Python, no process).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs, UsageError } from '../../src/cli/args.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { CONFIG_FLAG_OPTIONS, CONFIG_FLAG_SECTIONS, configFromFlags } from '../../src/cli/config-flags.ts';
import { commandHelp } from '../../src/cli/help.ts';
import { DEFAULT_CONFIG, withPreset } from '../../src/core/config.ts';
import { KNOBS, NUMBER_KNOBS, TOGGLE_KNOBS } from '../../src/core/config-table.ts';

const fromArgs = (...argv: string[]) =>
  configFromFlags(parseCommandArgs(argv, CONFIG_FLAG_OPTIONS).values, DEFAULT_CONFIG);

describe('the command line flags, from the config table', () => {
  it("parse every numeric knob's flag into its key", () => {
    for (const knob of NUMBER_KNOBS) {
      const value = knob.default === knob.max ? knob.min : knob.default + 1;
      expect(fromArgs(`--${knob.flag}`, String(value))[knob.key], knob.flag).toBe(value);
    }
    expect(fromArgs('--step-timeout-ms', '1500.5').stepTimeoutMs).toBe(1500.5);
  });

  it("parse every on/off knob's flags: the flag turns it on, the negated flag off", () => {
    for (const knob of TOGGLE_KNOBS) {
      if (knob.flag) expect(fromArgs(`--${knob.flag}`)[knob.key], knob.flag).toBe(true);
      if (knob.negatedFlag) expect(fromArgs(`--${knob.negatedFlag}`)[knob.key], knob.negatedFlag).toBe(false);
      expect(fromArgs()[knob.key], knob.key).toBe(knob.default);
    }
  });

  it('parse the skills and reward flags', () => {
    expect(fromArgs('--skills', 'logical deduction,optimization', '--reward', 'regret')).toMatchObject({
      skills: ['Logical Deduction', 'Optimization'],
      reward: 'regret',
    });
    expect(() => fromArgs('--reward', 'vibes')).toThrow(UsageError);
    expect(() => fromArgs('--skills', 'juggling')).toThrow(UsageError);
  });

  it('parse the thinking flags: one value for every role, or ROLE=VALUE pairs over the base', () => {
    expect(fromArgs('--thinking', 'on').thinking).toEqual({ designer: 'on', hint: 'on', agent: 'on', lesson: 'on' });
    expect(fromArgs('--thinking', 'agent=on, designer=default').thinking).toEqual({
      designer: 'default',
      hint: 'off',
      agent: 'on',
      lesson: 'off',
    });
    expect(fromArgs('--thinking-budget', '300').thinkingBudget).toEqual({
      designer: 300,
      hint: 300,
      agent: 300,
      lesson: 300,
    });
    expect(fromArgs('--thinking-budget', 'hint=0,lesson=2000').thinkingBudget).toEqual({
      ...DEFAULT_CONFIG.thinkingBudget,
      hint: 0,
      lesson: 2000,
    });
    expect(
      configFromFlags(
        parseCommandArgs(['--thinking', 'hint=off'], CONFIG_FLAG_OPTIONS).values,
        withPreset(DEFAULT_CONFIG, 'reference'),
      ).thinking,
    ).toEqual({
      designer: 'default',
      hint: 'off',
      agent: 'default',
      lesson: 'default',
    });
    expect(() => fromArgs('--thinking', 'maybe')).toThrow('--thinking must be one of on, off, default, got "maybe"');
    expect(() => fromArgs('--thinking', 'judge=on')).toThrow(
      '--thinking takes one value or ROLE=VALUE pairs with ROLE one of designer, hint, agent, lesson, got "judge=on"',
    );
    expect(() => fromArgs('--thinking-budget', 'agent=lots')).toThrow(
      '--thinking-budget needs a non-negative integer, got "lots"',
    );
  });

  it('parse the difficulty flag', () => {
    expect(fromArgs('--difficulty', 'hard').difficulty).toBe('hard');
    expect(() => fromArgs('--difficulty', 'brutal')).toThrow(
      '--difficulty must be one of adaptive, easy, medium, hard',
    );
  });

  it('parse the setting flag: its skills follow it unless --skills names some of its own', () => {
    const tool = fromArgs('--setting', 'tool_use');
    expect(tool).toMatchObject({
      setting: 'tool_use',
      skills: [
        'API Orchestration',
        'Data Retrieval',
        'State Modification',
        'Error Recovery',
        'Tool Selection',
        'Multi-Step Workflows',
      ],
      skillsPerEpoch: 2,
    });
    expect(fromArgs('--setting', 'tool_use', '--skills', 'error recovery,multi-step workflows').skills).toEqual([
      'Error Recovery',
      'Multi-Step Workflows',
    ]);
    expect(() => fromArgs('--setting', 'tool_use', '--skills', 'optimization')).toThrow(
      'unknown skill "optimization" for the tool_use setting',
    );
    expect(() => fromArgs('--setting', 'chess')).toThrow('--setting must be one of games, tool_use');
    expect(fromArgs('--solvability-judge').solvabilityJudge).toBe(true);
  });

  it('leave the config as it was without flags, key order included (the run files record it)', () => {
    expect(JSON.stringify(fromArgs())).toBe(JSON.stringify(DEFAULT_CONFIG));
    expect(JSON.stringify(configFromFlags({}, withPreset(DEFAULT_CONFIG, 'reference')))).toBe(
      JSON.stringify(withPreset(DEFAULT_CONFIG, 'reference')),
    );
  });

  it('keep the two defaults that follow other flags', () => {
    expect(fromArgs('--plays', '6')).toMatchObject({ playsPerArm: 6, hintPlays: 6 });
    expect(fromArgs('--plays', '6', '--hint-plays', '2')).toMatchObject({ playsPerArm: 6, hintPlays: 2 });
    expect(fromArgs('--skills', 'optimization').skillsPerEpoch).toBe(1);
    expect(fromArgs('--skills', 'optimization', '--skills-per-epoch', '3').skillsPerEpoch).toBe(3);
  });

  it('refuse a value that is not a number', () => {
    expect(() => fromArgs('--slots', 'many')).toThrow('--slots needs a non-negative integer, got "many"');
    expect(() => fromArgs('--step-timeout-ms', '1e3')).toThrow(
      '--step-timeout-ms needs a non-negative number, got "1e3"',
    );
  });

  it("give every flag one help line from its table row, list it in spade run's help, and name it in the README", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const help = commandHelp('run', COMMANDS.run!);
    const sectioned = CONFIG_FLAG_SECTIONS.flatMap((section) => Object.keys(section.options));
    expect([...sectioned].sort()).toEqual(Object.keys(CONFIG_FLAG_OPTIONS).sort());
    for (const knob of KNOBS) {
      const flags = knob.kind === 'toggle' ? [knob.flag, knob.negatedFlag] : [knob.flag];
      for (const flag of flags.filter((f): f is string => f !== undefined)) {
        const line = CONFIG_FLAG_OPTIONS[flag]!.help;
        expect(line, flag).not.toContain('\n');
        expect(line, flag).toContain(
          flag === knob.flag || !knob.flag ? (knob.label ?? knob.doc.replace(/\.$/, '')) : `turns --${knob.flag} off`,
        );
        expect(help, flag).toMatch(
          new RegExp(`\\n  --${flag}\\b[^\\n]*  ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`),
        );
        expect(readme, flag).toContain(`[--${flag}`);
      }
    }
    expect(CONFIG_FLAG_OPTIONS.slots!.help).toBe(
      'Slots per epoch: environments designed each epoch (1 to 256; tab 4; reference 24)',
    );
  });
});
