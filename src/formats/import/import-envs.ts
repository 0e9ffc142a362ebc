import { DEFAULT_CONFIG, withSetting, type Config } from '../../core/config.ts';
import { skillsOf, type RunSetting } from '../../core/skills.ts';
import { settingOfRecord } from '../export/pool-format.ts';
import {
  DEFAULT_VALIDATION,
  validateEnvironment,
  type ValidationOptions,
  type ValidationReport,
} from '../../core/env/validate-env.ts';
import type { ImportProblem } from '../export/files.ts';
import type { RunSnapshot } from '../export/run-snapshot.ts';
import type { EnvironmentRecord, EpochMetrics, ValidationVerdict } from '../../core/records.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import type { ImportCandidate } from './pool-import.ts';
import { validateEntries } from './validate-distinct.ts';

/** What an import validates with. */
export interface ValidatePorts {
  sandbox: SandboxRuntime;
  /** Validation limits (default: the tab defaults). */
  validation?: ValidationOptions;
  /** Mixed into each validation challenge when `validation` gives none (a random number drawn once per process or tab). */
  nonce?: number;
  /** Called after each distinct code is validated, with the distinct codes done and their count (copies of a code share its validation). */
  onProgress?: (done: number, total: number) => void;
}

/** A validation report as stored with a design attempt. */
export function verdictOf(report: ValidationReport): ValidationVerdict {
  const { ok, stage, code, message, className, repairedLines } = report;
  return { ok, stage, code, message, className, repairedLines, ...(report.toolUse ? { toolUse: true as const } : {}) };
}

/** Why a validation failed, in one line: stage, code and message. */
export function failureReason(report: ValidationReport): string {
  return `invalid at ${report.stage ?? '?'} (${report.code ?? '?'}): ${report.message ?? ''}`;
}

/** Id of the environment imported at `index`. */
export function importedEnvironmentId(index: number): string {
  return `pool-${String(index).padStart(6, '0')}`;
}

function importedRecord(index: number, candidate: ImportCandidate, report: ValidationReport): EnvironmentRecord {
  const domain = report.toolUse === true ? candidate.domain : undefined;
  return {
    id: importedEnvironmentId(index),
    epoch: 0,
    slot: index,
    skill: candidate.skill,
    difficulty: 'imported',
    docId: null,
    ...(domain !== undefined ? { domain } : {}),
    status: 'valid',
    code: report.source,
    attempts: [
      {
        attempt: 0,
        repair: false,
        messages: [],
        reply: '',
        code: report.source,
        validation: verdictOf(report),
        usage: { promptTokens: 0, completionTokens: 0 },
      },
    ],
    memoryShown: { positives: [], negative: null },
    hint: candidate.hint,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: null,
  };
}

/** The validation options an import uses: the given ones, or the tab defaults with the nonce; always as code, a file without `Env` refused unrun. */
export function importValidation(ports: ValidatePorts, defaults: Partial<ValidationOptions> = {}): ValidationOptions {
  return {
    ...(ports.validation ?? { ...DEFAULT_VALIDATION, ...defaults, nonce: ports.nonce ?? 0 }),
    source: 'code',
    requireEnvName: true,
  };
}

/** How a refused copy's verdict is recorded: the entry whose identical code was validated for it (a valid copy is simply imported). */
export function sharedVerdictNote(firstSource: string): string {
  return `the same code as ${firstSource}, validated once; this copy has its verdict`;
}

/**
 * Validates every candidate in the sandbox as code (a file is code: no reply extraction, no
 * brace repair): identical code once (docs/method.md section 1, "Import"), as many at a time as
 * the sandbox's parallelism, with results in the candidates' order. Valid ones (copies too) become environment
 * records of epoch 0 (slot = their index among the valid); invalid ones (syntax errors, hangs,
 * contract violations) are listed with the validator's reason. Nothing aborts the loop.
 */
export async function validateCandidates(
  candidates: readonly ImportCandidate[],
  ports: ValidatePorts,
): Promise<{ records: EnvironmentRecord[]; problems: ImportProblem[] }> {
  const options = importValidation(ports);
  const validate = (code: string) => validateEnvironment(code, ports.sandbox, options);
  const verdicts = await validateEntries(
    candidates.map((c) => c.code),
    validate,
    ports.sandbox.parallelism ?? 1,
    ports.onProgress,
  );
  const records: EnvironmentRecord[] = [];
  const problems: ImportProblem[] = [];
  for (const [i, candidate] of candidates.entries()) {
    const { report, validatedAs } = verdicts[i]!;
    const shared = validatedAs === i ? null : sharedVerdictNote(candidates[validatedAs]!.source);
    if (report.ok) {
      records.push(importedRecord(records.length, candidate, report));
      problems.push(...declarationProblems(candidate, report.toolUse === true));
    } else
      problems.push({
        source: candidate.source,
        reason: `${failureReason(report)}${shared ? ` (${shared})` : ''}`,
        kept: false,
      });
  }
  return { records, problems };
}

// Where a candidate's declared setting or domain disagrees with what validation found the code to be.
function declarationProblems(candidate: ImportCandidate, toolUse: boolean): ImportProblem[] {
  const actual: RunSetting = toolUse ? 'tool_use' : 'games';
  const problems: ImportProblem[] = [];
  if (candidate.setting !== undefined && candidate.setting !== actual) {
    const what = toolUse
      ? 'a tool-use environment (its get_tools() lists tools)'
      : 'a game (no tools from get_tools())';
    problems.push({
      source: candidate.source,
      reason: `the row says setting "${candidate.setting}", but the code is ${what}; imported as "${actual}"`,
      kept: true,
    });
  }
  if (candidate.domain !== undefined && !toolUse)
    problems.push({
      source: candidate.source,
      reason: `the code is a game, which has no domain; the domain ${JSON.stringify(candidate.domain)} was dropped`,
      kept: true,
    });
  return problems;
}

/** Settings of the run an imported pool becomes. */
export interface PoolRunOptions {
  runId: string;
  name: string;
  /** Milliseconds since 1970 for createdAt/updatedAt. */
  now: number;
  /** Candidates looked at (valid or not), for the epoch's attempt count. */
  candidates: number;
}

/** The setting of a run made of these environments: tool use when every one is a tool-use environment, else games. */
export function poolSetting(records: readonly EnvironmentRecord[]): RunSetting {
  return records.length > 0 && records.every((r) => settingOfRecord(r) === 'tool_use') ? 'tool_use' : 'games';
}

/**
 * A run holding an imported pool: one committed epoch 0 with the valid environments and no
 * plays (all statistics unset), memory empty, status completed. Its setting is the pool's
 * (poolSetting), and its skills are the pool's skills of that setting (all of them when none is).
 */
export function poolRunSnapshot(records: readonly EnvironmentRecord[], options: PoolRunOptions): RunSnapshot {
  const setting = poolSetting(records);
  const base = withSetting(DEFAULT_CONFIG, setting);
  const skills = [...new Set(records.map((r) => r.skill).filter((s) => Object.hasOwn(skillsOf(setting), s)))];
  const config: Config = { ...base, skills: skills.length > 0 ? skills : base.skills };
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.skill, (counts.get(r.skill) ?? 0) + 1);
  const perSkill: EpochMetrics['perSkill'] = Object.fromEntries(
    [...counts].map(([skill, environments]) => [skill, { environments, meanRegret: 0, meanWinRate: 0 }]),
  );
  const metrics: EpochMetrics = {
    epoch: 0,
    slots: records.length,
    validEnvironments: records.length,
    attempts: options.candidates,
    validityRate: options.candidates > 0 ? records.length / options.candidates : 0,
    meanRegret: 0,
    meanWinRate: 0,
    meanDesignerReward: 0,
    episodes: 0,
    droppedEpisodes: 0,
    quarantined: 0,
    designerScale: 0,
    promptTokens: 0,
    completionTokens: 0,
    perSkill,
  };
  return {
    meta: {
      id: options.runId,
      name: options.name,
      createdAt: options.now,
      updatedAt: options.now,
      config,
      modelId: 'import:pool',
      status: 'completed',
      epochsCompleted: 1,
      epochsPlanned: 1,
      lastError: null,
    },
    state: { epoch: 1, memory: [], skillAverages: {} },
    epochs: [{ metrics, timings: { epoch: 0, totalMs: 0, modelMs: 0, sandboxMs: 0 } }],
    environments: [...records],
    episodes: [],
    rollouts: [],
    evaluations: [],
  };
}
