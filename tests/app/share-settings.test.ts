import { describe, expect, it } from 'vitest';
import {
  configChanges,
  parseSettings,
  settingsFile,
  settingsFromHash,
  settingsUrl,
} from '../../src/app/new-run/share-settings.ts';
import { DEFAULT_CONFIG, withSetting, type Config } from '../../src/core/config.ts';

const custom: Config = {
  ...DEFAULT_CONFIG,
  seed: 99,
  skills: ['Optimization', 'Causal Inference'],
  reward: 'regret',
  playsPerArm: 6,
  agent: { ...DEFAULT_CONFIG.agent, temperature: 0.8 },
};

describe('shareable settings', () => {
  it('round-trips through a URL and a file, with the epochs and the model', () => {
    const shared = { config: custom, epochs: 7, modelId: 'openai:http://127.0.0.1:8080/v1#qwen3-4b' };
    const url = settingsUrl(shared, 'http://127.0.0.1:5173/');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#settings=[A-Za-z0-9_-]+$/);
    expect(settingsFromHash(new URL(url).hash)).toEqual(shared);
    expect(parseSettings(settingsFile(shared))).toEqual(shared);
    expect(settingsFromHash(new URL(settingsUrl({ config: custom }, 'http://127.0.0.1:5173/')).hash)).toStrictEqual({
      config: custom,
    });
  });

  it('links carry only what differs from the defaults: a few hundred characters, not the prompt templates', () => {
    const url = settingsUrl(
      { config: custom, epochs: 7, modelId: 'scripted:spade-lab-demo' },
      'http://127.0.0.1:5173/',
    );
    expect(url.length).toBeLessThan(400);
    const carried = JSON.parse(
      Buffer.from(new URL(url).hash.slice('#settings='.length), 'base64url').toString('utf8'),
    ) as { config: Record<string, unknown> };
    expect(carried.config).toEqual({
      seed: 99,
      skills: ['Optimization', 'Causal Inference'],
      reward: 'regret',
      playsPerArm: 6,
      agent: { temperature: 0.8 },
    });
    expect(settingsFromHash(new URL(settingsUrl({ config: DEFAULT_CONFIG }, 'http://127.0.0.1:5173/')).hash)).toEqual({
      config: DEFAULT_CONFIG,
    });
    expect(settingsFile({ config: custom }).length).toBeGreaterThan(url.length * 10);
  });

  it('an edited prompt template travels alone, and a changed setting carries its skills', () => {
    const edited: Config = {
      ...DEFAULT_CONFIG,
      prompts: { ...DEFAULT_CONFIG.prompts, hint: 'Give one hint about {code}.' },
    };
    expect(configChanges(edited)).toEqual({ prompts: { hint: 'Give one hint about {code}.' } });
    expect(settingsFromHash(new URL(settingsUrl({ config: edited }, 'http://x/')).hash)).toEqual({ config: edited });
    const tools = withSetting(DEFAULT_CONFIG, 'tool_use');
    expect(Object.keys(configChanges(tools))).toEqual(expect.arrayContaining(['setting', 'skills']));
    expect(settingsFromHash(new URL(settingsUrl({ config: tools }, 'http://x/')).hash)).toEqual({ config: tools });
  });

  it('still reads a link made before links carried the epochs and the model (a bare config)', () => {
    const old = `#settings=${Buffer.from(JSON.stringify(custom)).toString('base64url')}`;
    expect(settingsFromHash(old)).toStrictEqual({ config: custom });
  });

  it('refuses epochs or a model id it cannot use, naming the value', () => {
    expect(parseSettings(JSON.stringify({ config: {}, epochs: 0 }))).toEqual({
      error: 'The settings\' "epochs" must be a whole number from 1 to 1000, got 0.',
    });
    expect(parseSettings(JSON.stringify({ config: {}, epochs: 2.5 }))).toMatchObject({
      error: expect.stringContaining('got 2.5'),
    });
    expect(parseSettings(JSON.stringify({ config: {}, modelId: 'gpt' }))).toEqual({
      error:
        'The settings\' "modelId" is not a model id (expected webllm:, wllama:, openai:URL#model or scripted:), got "gpt".',
    });
  });

  it('fills missing keys with defaults and ignores unknown ones', () => {
    expect(parseSettings(JSON.stringify({ seed: 5, bogus: true }))).toEqual({ config: { ...DEFAULT_CONFIG, seed: 5 } });
  });

  it('rejects bad settings with a specific reason', () => {
    expect(parseSettings('{nope')).toEqual({ error: 'The settings are not valid JSON.' });
    expect(parseSettings('[1]')).toEqual({ error: 'The settings must be a JSON object.' });
    expect(parseSettings(JSON.stringify({ seed: 'one' }))).toEqual({
      error: 'The setting "seed" has the wrong type (expected number).',
    });
    expect(parseSettings(JSON.stringify({ skills: ['Juggling'] }))).toMatchObject({
      error: expect.stringContaining('unknown skills'),
    });
    const fix = 'Nothing was prefilled: the new-run form keeps its defaults. Ask for the link again.';
    expect(settingsFromHash('#settings=@@@')).toEqual({
      error: `This settings link cannot be used. It is damaged (it holds characters a settings link never has). ${fix}`,
    });
    expect(settingsFromHash('#settings=bm90IGpzb24')).toEqual({
      error: `This settings link cannot be used. The settings are not valid JSON. ${fix}`,
    });
    expect(settingsFromHash('#settings=')).toEqual({
      error: `This settings link cannot be used. It is damaged (it holds characters a settings link never has). ${fix}`,
    });
    expect(settingsFromHash('#other=1')).toBeNull();
  });
});
