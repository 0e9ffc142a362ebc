import { parseModelId } from '../../adapters/llm/model-id.ts';
import { configProblems, DEFAULT_CONFIG, withSetting, type Config } from '../../core/config.ts';
import { KNOBS } from '../../core/config-table.ts';

/** URL fragment key that carries shared settings. */
export const SHARE_KEY = 'settings';

/** Version written into shared settings files. */
export const SHARE_VERSION = 1;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(encoded: string): string {
  const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The most epochs a new run may plan, and an extension may add (the new-run form's limit). */
export const MAX_EPOCHS = 1000;

/** What a link or settings file carries: a run's settings, and the epochs it plans and the model it uses when they were shared. */
export interface SharedSettings {
  config: Config;
  /** Epochs the new run plans (absent in links made before they carried it). */
  epochs?: number;
  /** The model id (`webllm:...`, `wllama:...`, `openai:URL#model`, `scripted:...`; never an API key). */
  modelId?: string;
}

/** Whether two JSON values are the same (object key order aside). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The settings of `config` that differ from the tab defaults, as parseSettings reads them back:
 * a grouped setting (sampling, prompt templates) keeps only its entries that differ, and a
 * changed setting always carries its skills (parseSettings gives a setting without skills all of its own).
 */
export function configChanges(config: Config): Partial<Record<keyof Config, unknown>> {
  const changes: Partial<Record<keyof Config, unknown>> = {};
  for (const knob of KNOBS) {
    const [key, value, expected]: [keyof Config, unknown, unknown] = [knob.key, config[knob.key], knob.default];
    if (sameJson(value, expected)) continue;
    changes[key] =
      isRecord(value) && isRecord(expected)
        ? Object.fromEntries(Object.entries(value).filter(([k, v]) => !sameJson(v, expected[k])))
        : value;
  }
  if ('setting' in changes) changes.skills = config.skills;
  return changes;
}

const sharedObject = (shared: SharedSettings, config: unknown = shared.config) => ({
  config,
  ...(shared.epochs === undefined ? {} : { epochs: shared.epochs }),
  ...(shared.modelId === undefined ? {} : { modelId: shared.modelId }),
});

/** The settings file's contents (JSON). */
export function settingsFile(shared: SharedSettings): string {
  return JSON.stringify({ spadeLabSettings: SHARE_VERSION, ...sharedObject(shared) }, null, 2) + '\n';
}

/** A link that opens the app with these settings (and epochs and model) prefilled in a new run; it carries only the settings that differ from the defaults (the settings file carries them all). */
export function settingsUrl(shared: SharedSettings, base: string): string {
  const url = new URL(base);
  url.hash = `${SHARE_KEY}=${toBase64Url(JSON.stringify(sharedObject(shared, configChanges(shared.config))))}`;
  return url.toString();
}

/** The epochs and model a shared object names, or the reason they are unusable. */
function runChoices(given: Record<string, unknown>): Omit<SharedSettings, 'config'> | { error: string } {
  const { epochs, modelId } = given;
  if (
    epochs !== undefined &&
    (typeof epochs !== 'number' || !Number.isInteger(epochs) || epochs < 1 || epochs > MAX_EPOCHS)
  ) {
    return {
      error: `The settings' "epochs" must be a whole number from 1 to ${MAX_EPOCHS}, got ${JSON.stringify(epochs)}.`,
    };
  }
  if (modelId !== undefined && (typeof modelId !== 'string' || parseModelId(modelId) === null)) {
    return {
      error: `The settings' "modelId" is not a model id (expected webllm:, wllama:, openai:URL#model or scripted:), got ${JSON.stringify(modelId)}.`,
    };
  }
  return { ...(epochs === undefined ? {} : { epochs }), ...(modelId === undefined ? {} : { modelId }) };
}

/**
 * Reads shared settings (a settings file's JSON or a link's object, with the epochs and model when
 * they were shared, or a bare config object) into a full Config: one value per row of the config
 * table (unknown keys are ignored, missing ones take the defaults, a value must have its row's
 * type; a setting given without skills takes all of its skills), and the result must pass the
 * config checks.
 */
export function parseSettings(json: string): SharedSettings | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { error: 'The settings are not valid JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'The settings must be a JSON object.' };
  const wrapped = 'config' in value;
  const raw = wrapped ? (value as { config: unknown }).config : value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { error: 'The settings must be a JSON object.' };
  const choices = wrapped ? runChoices(value as Record<string, unknown>) : {};
  if ('error' in choices) return choices;
  const config = { ...DEFAULT_CONFIG } as Record<string, unknown>;
  for (const { key, default: expected } of KNOBS) {
    const given = (raw as Record<string, unknown>)[key];
    if (given === undefined) continue;
    const sameShape = Array.isArray(expected) ? Array.isArray(given) : typeof given === typeof expected;
    if (!sameShape)
      return {
        error: `The setting "${key}" has the wrong type (expected ${Array.isArray(expected) ? 'a list' : typeof expected}).`,
      };
    config[key] =
      typeof expected === 'object' && !Array.isArray(expected)
        ? { ...(expected as object), ...(given as object) }
        : given;
  }
  const given = raw as Record<string, unknown>;
  const settled =
    given.setting !== undefined && given.skills === undefined
      ? withSetting(config as unknown as Config, config.setting as Config['setting'])
      : (config as unknown as Config);
  const problems = configProblems(settled);
  return problems.length > 0
    ? { error: `The settings are not usable: ${problems.join('; ')}.` }
    : { config: settled, ...choices };
}

/** What follows the reason a settings link cannot be used. */
const BROKEN_LINK_FIX = 'Nothing was prefilled: the new-run form keeps its defaults. Ask for the link again.';

/** Reads shared settings from a URL fragment (`#settings=...`); null when there are none, an error naming what is wrong when it cannot be used. */
export function settingsFromHash(hash: string): SharedSettings | { error: string } | null {
  const match = new RegExp(`${SHARE_KEY}=([^&]*)`).exec(hash);
  if (!match) return null;
  let read: SharedSettings | { error: string };
  try {
    read = /^[A-Za-z0-9_-]+$/.test(match[1]!)
      ? parseSettings(fromBase64Url(match[1]!))
      : { error: 'It is damaged (it holds characters a settings link never has).' };
  } catch {
    read = { error: 'It is damaged (it does not decode).' };
  }
  return 'error' in read ? { error: `This settings link cannot be used. ${read.error} ${BROKEN_LINK_FIX}` } : read;
}
