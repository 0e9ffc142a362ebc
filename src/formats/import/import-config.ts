import {
  configProblems,
  DEFAULT_CONFIG,
  MAX_STEP_TIMEOUT_MS,
  MAX_VALIDATE_TIMEOUT_MS,
  type Config,
} from '../../core/config.ts';
import { isObject, type ImportProblem } from '../export/files.ts';
import { errorMessage } from '../../core/error-message.ts';

const TIMEOUTS = { validateTimeoutMs: MAX_VALIDATE_TIMEOUT_MS, stepTimeoutMs: MAX_STEP_TIMEOUT_MS } as const;

/**
 * The config of an imported run, checked as this app checks its own: fields the archive lacks
 * take this app's defaults (a warning each), timeouts above this app's limits are lowered to them
 * (a warning each), and anything else `configProblems` rejects makes the config unusable (null,
 * with one problem per reason). `source` names the file in the problems.
 */
export function importedConfig(raw: unknown, source: string): { config: Config | null; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  if (!isObject(raw))
    return {
      config: null,
      problems: [
        {
          source,
          reason: 'expected a config object, saw none; cannot rebuild the run. Fix: export the run again',
          kept: false,
        },
      ],
    };
  const config = { ...DEFAULT_CONFIG } as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_CONFIG)) {
    if (Object.hasOwn(raw, key)) config[key] = raw[key];
    else
      problems.push({
        source,
        reason: `config has no ${key}; this app's default ${JSON.stringify(config[key])} is used`,
        kept: true,
      });
  }
  for (const key of Object.keys(raw).filter((k) => !Object.hasOwn(DEFAULT_CONFIG, k))) {
    problems.push({
      source,
      reason: `config field ${JSON.stringify(key)} is unknown to this app; dropped`,
      kept: true,
    });
  }
  for (const [key, max] of Object.entries(TIMEOUTS)) {
    const value = config[key];
    if (typeof value === 'number' && value > max) {
      config[key] = max;
      problems.push({
        source,
        reason: `config ${key} ${value} is above this app's limit; lowered to ${max} ms`,
        kept: true,
      });
    }
  }
  let reasons: string[];
  try {
    reasons = configProblems(config as unknown as Config);
  } catch (error) {
    reasons = [`a field has the wrong type (${errorMessage(error)})`];
  }
  if (!Array.isArray(config.skills) || !config.skills.every((s) => typeof s === 'string'))
    reasons.push('skills must be a list of skill names');
  if (reasons.length === 0) return { config: config as unknown as Config, problems };
  const fix = 'Fix: correct config in run.json, or export the run again from an app that accepts it';
  return {
    config: null,
    problems: [
      ...problems,
      ...reasons.map((reason) => ({ source, reason: `config rejected: ${reason}. ${fix}`, kept: false })),
    ],
  };
}
