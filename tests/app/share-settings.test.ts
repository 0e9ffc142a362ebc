import { describe, expect, it } from 'vitest';
import { parseSettings, settingsFile, settingsFromHash, settingsUrl } from '../../src/app/share-settings.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';

const custom: Config = { ...DEFAULT_CONFIG, seed: 99, skills: ['Optimization', 'Causal Inference'], reward: 'regret', playsPerArm: 6, agent: { ...DEFAULT_CONFIG.agent, temperature: 0.8 } };

describe('shareable settings', () => {
  it('round-trips through a URL and a file, with the epochs and the model', () => {
    const shared = { config: custom, epochs: 7, modelId: 'openai:http://127.0.0.1:8080/v1#qwen3-4b' };
    const url = settingsUrl(shared, 'http://127.0.0.1:5173/');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#settings=[A-Za-z0-9_-]+$/);
    expect(settingsFromHash(new URL(url).hash)).toEqual(shared);
    expect(parseSettings(settingsFile(shared))).toEqual(shared);
    expect(settingsFromHash(new URL(settingsUrl({ config: custom }, 'http://127.0.0.1:5173/')).hash)).toStrictEqual({ config: custom });
  });

  it('still reads a link made before links carried the epochs and the model (a bare config)', () => {
    const old = `#settings=${Buffer.from(JSON.stringify(custom)).toString('base64url')}`;
    expect(settingsFromHash(old)).toStrictEqual({ config: custom });
  });

  it('refuses epochs or a model id it cannot use, naming the value', () => {
    expect(parseSettings(JSON.stringify({ config: {}, epochs: 0 }))).toEqual({ error: 'The settings\' "epochs" must be a whole number from 1 to 1000, got 0.' });
    expect(parseSettings(JSON.stringify({ config: {}, epochs: 2.5 }))).toMatchObject({ error: expect.stringContaining('got 2.5') });
    expect(parseSettings(JSON.stringify({ config: {}, modelId: 'gpt' }))).toEqual({
      error: 'The settings\' "modelId" is not a model id (expected webllm:, wllama:, openai:URL#model or scripted:), got "gpt".',
    });
  });

  it('fills missing keys with defaults and ignores unknown ones', () => {
    expect(parseSettings(JSON.stringify({ seed: 5, bogus: true }))).toEqual({ config: { ...DEFAULT_CONFIG, seed: 5 } });
  });

  it('rejects bad settings with a specific reason', () => {
    expect(parseSettings('{nope')).toEqual({ error: 'The settings are not valid JSON.' });
    expect(parseSettings('[1]')).toEqual({ error: 'The settings must be a JSON object.' });
    expect(parseSettings(JSON.stringify({ seed: 'one' }))).toEqual({ error: 'The setting "seed" has the wrong type (expected number).' });
    expect(parseSettings(JSON.stringify({ skills: ['Juggling'] }))).toMatchObject({ error: expect.stringContaining('unknown skills') });
    expect(settingsFromHash('#settings=@@@')).toBeNull();
    expect(settingsFromHash('#settings=bm90IGpzb24')).toEqual({ error: 'The settings are not valid JSON.' });
    expect(settingsFromHash('#other=1')).toBeNull();
  });
});
