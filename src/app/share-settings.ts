import { configProblems, DEFAULT_CONFIG, withSetting, type Config } from '../core/config.ts';
import { KNOBS } from '../core/config-table.ts';

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

/** The settings file's contents (JSON). */
export function settingsFile(config: Config): string {
  return JSON.stringify({ spadeLabSettings: SHARE_VERSION, config }, null, 2) + '\n';
}

/** A link that opens the app with these settings prefilled in a new run. */
export function settingsUrl(config: Config, base: string): string {
  const url = new URL(base);
  url.hash = `${SHARE_KEY}=${toBase64Url(JSON.stringify(config))}`;
  return url.toString();
}

/**
 * Reads shared settings (a settings file's JSON, or a bare config object) into a full Config:
 * one value per row of the config table (unknown keys are ignored, missing ones take the defaults,
 * a value must have its row's type; a setting given without skills takes all of its skills), and
 * the result must pass the config checks.
 */
export function parseSettings(json: string): { config: Config } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { error: 'The settings are not valid JSON.' };
  }
  const raw = (value as { config?: unknown } | null)?.config ?? value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: 'The settings must be a JSON object.' };
  const config = { ...DEFAULT_CONFIG } as Record<string, unknown>;
  for (const { key, default: expected } of KNOBS) {
    const given = (raw as Record<string, unknown>)[key];
    if (given === undefined) continue;
    const sameShape = Array.isArray(expected) ? Array.isArray(given) : typeof given === typeof expected;
    if (!sameShape) return { error: `The setting "${key}" has the wrong type (expected ${Array.isArray(expected) ? 'a list' : typeof expected}).` };
    config[key] = typeof expected === 'object' && !Array.isArray(expected) ? { ...(expected as object), ...(given as object) } : given;
  }
  const given = raw as Record<string, unknown>;
  const settled = given.setting !== undefined && given.skills === undefined ? withSetting(config as unknown as Config, config.setting as Config['setting']) : (config as unknown as Config);
  const problems = configProblems(settled);
  return problems.length > 0 ? { error: `The settings are not usable: ${problems.join('; ')}.` } : { config: settled };
}

/** Reads shared settings from a URL fragment (`#settings=...`); null when there are none. */
export function settingsFromHash(hash: string): { config: Config } | { error: string } | null {
  const match = new RegExp(`${SHARE_KEY}=([A-Za-z0-9_-]+)`).exec(hash);
  if (!match) return null;
  try {
    return parseSettings(fromBase64Url(match[1]!));
  } catch {
    return { error: 'The settings link is damaged; ask for it again.' };
  }
}
