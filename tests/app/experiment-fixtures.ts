// Suites, pools and a script for the app's experiment tests (held-out evaluation, playbook, fixed
// pool): the two games of scripted/hint-helps.json as in-process doubles, so no Python runs.
import { readFileSync } from 'node:fs';
import { parseChatScript, type ChatScript } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import type { Suite } from '../../src/core/eval/suite.ts';

/** A glowing-key game the doubles answer to (the first line is what `fakeSandbox` looks up). */
export const GLOW_CODE = 'class GlowKeyEnv:\n    pass\n';
/** A password game every play wins by saying "door". */
export const DOOR_CODE = 'class DoorWordEnv:\n    pass\n';

/** A held-out suite of the two doubles. */
export const HELD_OUT_SUITE: Suite = {
  name: 'builtin',
  sha256: 'a'.repeat(64),
  environments: [
    { id: 'glow_key', skill: 'Logical Deduction', code: GLOW_CODE, title: 'Glow key' },
    { id: 'door_word', skill: 'Pattern Recognition', code: DOOR_CODE, title: 'Door word' },
  ],
};

/** A fixed pool of the same doubles under other ids. */
export const FIXED_POOL: Suite = {
  name: 'starter',
  sha256: 'b'.repeat(64),
  environments: [
    { id: 'pool_glow', skill: 'Logical Deduction', code: GLOW_CODE, title: null },
    { id: 'pool_door', skill: 'Logical Deduction', code: DOOR_CODE, title: null },
  ],
};

/** The lesson every lesson request of LESSON_SCRIPT gets. */
export const LESSON_TEXT = 'Look for the one thing that stands out before you act.';

/** scripted/hint-helps.json with a rule for lesson requests. */
export const LESSON_SCRIPT: ChatScript = (() => {
  const base = parseChatScript(
    JSON.parse(readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
  );
  return { ...base, rules: [...base.rules, { purpose: 'lesson', replies: [`LESSON: ${LESSON_TEXT}`] }] };
})();
