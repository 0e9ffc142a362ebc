// Every built-in suite environment in the real Node sandbox: it passes validation (under a
// challenge drawn from its code's hash), answers a second challenge drawn as a run draws one (from
// a seed) without a failure and with the same first observation twice, its scripted winning line
// wins seeds 0, 1 and 2 within the turn cap, and its losing line does not. The starter pool and the
// demo's game get both challenges in bundled-games-challenge.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../fixtures/sandbox/file-sandbox.ts';
import { DEFAULT_VALIDATION, drawChallenge, validateEnvironment } from '../../src/core/env/validate-env.ts';
import { challengeProbe, checkSameReset } from '../../src/core/env/validation-challenge.ts';
import type { StepResult } from '../../src/core/env/contract.ts';
import type { EnvHandle } from '../../src/core/ports/sandbox-port.ts';
import { policyForObservation, type Play } from '../../src/adapters/llm/scripted/suite-policies.ts';

// One real Node sandbox for the file.
const runtime = fileSandbox();

const SUITE = join(import.meta.dirname, '../../public/suites/builtin');
const manifest: Array<{ file_name: string; skill_name: string; title: string }> = readFileSync(
  join(SUITE, 'manifest.jsonl'),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
/** The tab's default turn cap: every suite game must be winnable within it. */
const TURN_CAP = DEFAULT_VALIDATION.maxTurns;
const SEEDS = [0, 1, 2];
/** Appended to one play's first observation, as the loop appends a hint; the players must ignore it. */
const NOISY_HINT = 'Try 7 @ 3 = 24, every 2, 3 and 5 seconds, Now: A has 9, B has 9. [..#/.#./#..]';

interface Episode {
  first: string;
  steps: StepResult[];
}

/** Plays one episode on a fresh instance, with `play` choosing every action from the observations so far. */
async function playEpisode(handle: EnvHandle, seed: number, play: Play, hint?: string): Promise<Episode> {
  await handle.renew();
  const { observation } = await handle.reset(seed);
  const observations = [hint ? `${observation}\n\nHINT: ${hint}` : observation];
  const steps: StepResult[] = [];
  while (steps.length < TURN_CAP + 2) {
    const step = await handle.step(play(observations));
    steps.push(step);
    if (step.terminated || step.truncated) break;
    observations.push(step.observation);
  }
  return { first: observation, steps };
}

const won = (episode: Episode) => episode.steps.at(-1)?.terminated === true && episode.steps.at(-1)?.reward === 1;

describe('built-in suite environments in the sandbox', () => {
  it.each(manifest)(
    '$title ($skill_name) is valid, passes a run-seed challenge, is won by its winning line and lost by its losing line',
    async (row) => {
      const code = readFileSync(join(SUITE, 'games', row.file_name), 'utf8');
      const report = await validateEnvironment(code, runtime(), { ...DEFAULT_VALIDATION, source: 'code' });
      expect({ ok: report.ok, message: report.message }).toEqual({ ok: true, message: null });
      expect(report.firstObservation!.startsWith(`[${row.title}] `)).toBe(true);
      expect(report.firstObservation).toContain('\\boxed{');

      const handle = await runtime().load(code, { maxTurns: TURN_CAP, timeoutMs: 5000 });
      try {
        // The run-seed challenge's own checks (validation's fixed probe is the same every time, and passed above), on the handle the lines play next: one interpreter start fewer than a second validation.
        const challenge = drawChallenge(manifest.indexOf(row) + 1);
        await checkSameReset(handle, challenge.seeds[0], await challengeProbe(handle, challenge));
        expect(handle.hasSolution).toBe(true);
        for (const seed of SEEDS) {
          const { observation } = await handle.reset(seed);
          const policy = policyForObservation(observation);
          expect(policy?.title).toBe(row.title);

          const win = await playEpisode(handle, seed, policy!.win, seed === 2 ? NOISY_HINT : undefined);
          expect(won(win), `win line, seed ${seed}: ${win.steps.at(-1)?.observation}`).toBe(true);
          expect(win.steps.at(-1)!.truncated).toBe(false);
          expect(win.steps.length).toBeLessThanOrEqual(TURN_CAP);
          for (const step of win.steps.slice(0, -1))
            expect(step).toMatchObject({ reward: 0, terminated: false, truncated: false });

          const lose = await playEpisode(handle, seed, policy!.lose);
          expect(won(lose), `lose line, seed ${seed}`).toBe(false);
          // The losing line ends like any episode: a terminal loss or truncation at the turn cap, never more steps.
          expect(lose.steps.at(-1)!.terminated || lose.steps.at(-1)!.truncated).toBe(true);
          expect(lose.steps.every((step) => step.reward < 1)).toBe(true);

          const solution = await handle.solution();
          expect(solution?.length, `solution of seed ${seed}`).toBeGreaterThan(10);
        }
        // Seeds give different instances (a first observation may hide the instance, so its solution is compared too), and the same seed the same one.
        const instances: string[] = [];
        for (const seed of SEEDS)
          instances.push(`${(await handle.reset(seed)).observation}\n${await handle.solution()}`);
        expect(new Set(instances).size).toBe(SEEDS.length);
        expect(`${(await handle.reset(1)).observation}\n${await handle.solution()}`).toBe(instances[1]);
      } finally {
        await handle.dispose();
      }
    },
  );
});
