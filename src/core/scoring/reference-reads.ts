// For differences that need a new run, how many of the run's stored plays they touched: a reply
// the reference would have read as another action, a tool-use turn the reference would have run
// another way, or a reset or step return the reference would have converted (docs/method.md section 5,
// "What it cost your run"). Counted, never recomputed: what the environment would have answered
// is not in the files.
import type { Config } from '../config.ts';
import type { Episode } from '../records.ts';
import type { EnvErrorCode } from '../env/env-error.ts';
import { parseAction } from '../prompts/agent-prompt.ts';
import { parseToolReply } from '../prompts/tool-call-parse.ts';
import { CONVERTED_RESET_CODES, CONVERTED_STEP_CODES } from '../loop/step-crash.ts';

/** How many plays a difference touched, out of how many, and what touched them. */
export interface TouchedPlays {
  plays: number;
  of: number;
  what: string;
}

const readAlike = (reply: string, toolUse: boolean) =>
  toolUse
    ? JSON.stringify(parseToolReply(reply, false)) === JSON.stringify(parseToolReply(reply, true))
    : parseAction(reply, false) === parseAction(reply, true);

function replyAidsTouch(e: Episode, toolUse: boolean): boolean {
  return e.turns.some((turn) => !readAlike(turn.reply, toolUse));
}

// One reply, one step: a reply with several calls ran only its first, and a play that ran out of the class's turns spent them on calls.
function freeToolCallsTouch(e: Episode, replyAids: boolean): boolean {
  const several = e.turns.some((turn) => {
    const read = parseToolReply(turn.reply, replyAids);
    return read.kind === 'calls' && read.calls.length > 1;
  });
  return several || e.turns.at(-1)?.truncated === true;
}

const convertible = (code: EnvErrorCode | undefined) =>
  code !== undefined && (CONVERTED_STEP_CODES.has(code) || CONVERTED_RESET_CODES.has(code));

// A reset or step return the contract refused (the play failed, ended at -1 or went on from the reset error) that the reference's wrapper would have converted.
const refusedConvertible = (e: Episode) => [e.error?.code, e.crash?.code].some(convertible);

/** The plays of `episodes` that the run's reply aids, one-step-per-reply rule or strict reset and step contract touched, for the knobs where the run differs from `reference`. */
export function touchedPlays(
  config: Config,
  reference: Config,
  episodes: readonly Episode[],
): Partial<Record<keyof Config, TouchedPlays>> {
  const toolUse = config.setting === 'tool_use';
  const touched: Partial<Record<keyof Config, TouchedPlays>> = {};
  const count = (test: (e: Episode) => boolean) => episodes.filter(test).length;
  if (config.replyAids !== reference.replyAids) {
    touched.replyAids = {
      plays: count((e) => replyAidsTouch(e, toolUse)),
      of: episodes.length,
      what: 'a reply the other rule reads as another action',
    };
  }
  if (toolUse && config.freeToolCalls !== reference.freeToolCalls && !config.freeToolCalls) {
    touched.freeToolCalls = {
      plays: count((e) => freeToolCallsTouch(e, config.replyAids)),
      of: episodes.length,
      what: 'a reply with several calls (only the first ran) or the class turns run out',
    };
  }
  if (config.coerceStepReturns !== reference.coerceStepReturns && !config.coerceStepReturns) {
    touched.coerceStepReturns = {
      plays: count(refusedConvertible),
      of: episodes.length,
      what: 'a reset or step return refused here that the reference converts (a refused return or reward counted though str() or float() may not read it)',
    };
  }
  return touched;
}
