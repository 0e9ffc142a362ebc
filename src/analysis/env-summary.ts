import type { EnvironmentRecord } from '../core/records.ts';
import { environmentSetting } from '../core/skills.ts';
import { isScored } from './env-query.ts';
import type { EnvironmentSummary } from '../core/ports/store-port.ts';

/** The rejection reason of an environment's last attempt, or null when it is valid. */
export function rejectionReason(env: EnvironmentRecord): string | null {
  if (env.status === 'valid') return null;
  const last = env.attempts[env.attempts.length - 1];
  if (!last) return 'no design attempt was recorded';
  const v = last.validation;
  return `${v.stage ?? 'unknown'}/${v.code ?? 'unknown'}: ${v.message ?? 'no message'}`;
}

/** The first module-level class whose name ends in `Env`, as the sandbox picks it (`Env` and `ToolUseBaseEnv` are not candidates). */
const ENV_CLASS = /^class\s+(?!(?:Env|ToolUseBaseEnv)\b)([A-Za-z_]\w*Env)\b/m;

/**
 * An environment's class name: the one its validation found (the valid attempt's, else the last
 * attempt's), else the first `*Env` class its code declares (a fixed pool's environments have no
 * design attempt), else null.
 */
export function environmentClassName(env: EnvironmentRecord): string | null {
  const valid = env.attempts.find((a) => a.validation.ok);
  const found = valid?.validation.className ?? env.attempts[env.attempts.length - 1]?.validation.className;
  return found ?? ENV_CLASS.exec(env.code)?.[1] ?? null;
}

const finite = (value: number | undefined): number | null =>
  value !== undefined && Number.isFinite(value) ? value : null;

/** The explorer's summary of a stored environment. */
export function summarizeEnvironment(env: EnvironmentRecord): EnvironmentSummary {
  return {
    id: env.id,
    epoch: env.epoch,
    slot: env.slot,
    skill: env.skill,
    className: environmentClassName(env),
    setting: environmentSetting(env, 'games'),
    domain: env.domain ?? null,
    status: env.status,
    scored: isScored(env),
    winRate: finite(env.stats?.winRate),
    regret: finite(env.stats?.regret),
    designerReward: finite(env.stats?.designerReward),
    reason: rejectionReason(env),
  };
}
