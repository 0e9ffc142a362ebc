// The tool-use demo as a new user meets it: started from the first screen, one small epoch at
// instant speed (one slot, one play per arm), then the replay of the multi-turn task shows each
// turn as a tool call with its arguments and result, the instruction it revealed and the
// criterion it met; playing it yourself through the tool form wins as the hinted agent did.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations } from './app-helpers.ts';
import { openApp, type BrowserRig } from './harness.ts';
import { preText, shownPattern, shownText, shownTexts } from './page-text.ts';

const ENV_ID = 'e0000-s00';
const INSTRUCTIONS = (room: string) => [
  `I'm heading to the ${room}; please turn its light on.`,
  'Make it warm in there: comfort mode.',
  'Show me how that room is set up now.',
];

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  ({ rig, page } = await openApp());
}, 60_000);
afterAll(() => rig?.close());

const rowText = (table: Locator, header: string) =>
  shownText(table.getByRole('row', { name: new RegExp(`^${header}`) }).getByRole('cell'));
const states = (list: Locator): Promise<Array<string | null>> =>
  list.evaluateAll((items) => items.map((item) => item.getAttribute('data-state')));

describe('the tool-use demo, from the first screen to the replay of a multi-turn task', () => {
  it('starts from the first screen in the tool-use setting and runs one epoch', async () => {
    await page.getByRole('button', { name: 'Start the tool-use demo' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Start the tool-use demo' }).click();
    await expect(page.getByLabel(shownPattern(/^Setting\b/)).inputValue()).resolves.toBe('tool_use');
    await expect(shownText(page.getByTestId('demo-notice'))).resolves.toContain(
      'only when the hint is in its first message',
    );
    await page.getByLabel('Epochs', { exact: true }).fill('1');
    await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('1');
    await page.getByRole('spinbutton', { name: /^Unhinted plays per rollout/ }).fill('1');
    await page.getByRole('spinbutton', { name: /^Hinted plays/ }).fill('1');
    await page.getByRole('spinbutton', { name: /^Turn cap/ }).fill('5');
    const started = Date.now();
    await page.getByRole('button', { name: 'Create run' }).click();
    await page
      .getByTestId('run-status')
      .filter({ hasText: shownPattern(/completed|failed/) })
      .waitFor({ timeout: 150_000 });
    const problems = await shownTexts(page.getByRole('alert'));
    expect(await shownText(page.getByTestId('run-status')), problems.join(' | ')).toBe('completed');
    console.log(`tool-use demo epoch (1 slot, 1 + 1 plays) finished in ${Date.now() - started} ms`);
    await screenshot(page, 'tool-use-demo-run');
  }, 180_000);

  it('replays the hinted play as tool calls, arguments, results, revealed instructions and met criteria', async () => {
    await page.getByRole('button', { name: 'Explorer' }).click();
    await page.getByRole('button', { name: ENV_ID, exact: true }).click();
    await page.getByRole('heading', { name: `Environment ${ENV_ID}` }).waitFor();
    await expect(shownText(page.locator('.head'))).resolves.toMatch(/domain: [\w ]+/);
    const hinted = page.getByRole('article', { name: 'Play 1 with the hint' });
    const unhinted = page.getByRole('article', { name: 'Play 1 without the hint' });
    const room = /heading to the (\w+);/.exec(await preText(hinted.locator('pre').first()))![1]!;
    const [first, second, third] = INSTRUCTIONS(room);
    const list = hinted.getByTestId('instruction-list').locator('li');
    await expect(states(list)).resolves.toEqual(['current', 'hidden', 'hidden']);

    await page.getByRole('button', { name: 'Step forward' }).click();
    const step = hinted.getByTestId('tool-step');
    await expect(shownText(step.getByTestId('tool-name'))).resolves.toBe('set_light');
    const args = await shownTexts(step.getByTestId('tool-argument'));
    expect(args).toEqual([`room "${room}"`, 'power "on"']);
    await expect(preText(step.getByTestId('tool-result')).then((text) => text.trim())).resolves.toBe(
      `${room} light: on\n\n[DONE. NEXT INSTRUCTION] ${second}`,
    );
    await expect(shownText(step.getByTestId('step-met'))).resolves.toBe(`Instruction 1: “${first}”`);
    await expect(shownText(step.getByTestId('step-revealed'))).resolves.toBe(`Instruction 2: “${second}”`);
    const criteria = await shownTexts(step.locator('.criteria li'));
    expect(criteria).toEqual(['1: met', '2: not met', '3: not met']);
    await expect(states(list)).resolves.toEqual(['done', 'current', 'hidden']);
    // Without the hint the agent looks at the scenes: a call that meets no criterion.
    await expect(shownText(unhinted.getByTestId('tool-name'))).resolves.toBe('list_scenes');
    await expect(unhinted.getByTestId('step-met').count()).resolves.toBe(0);
    await screenshot(page, 'tool-use-demo-replay-turn1');

    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.getByRole('button', { name: 'Step forward' }).click();
    await expect(shownText(step.getByTestId('tool-name'))).resolves.toBe('status');
    await expect(shownText(step.getByTestId('step-met'))).resolves.toBe(`Instruction 3: “${third}”`);
    await expect(shownText(step.getByTestId('step-revealed'))).resolves.toMatch(/^none: every instruction is done/);
    await page.getByRole('button', { name: 'Step forward' }).click();
    await expect(shownText(step.getByTestId('tool-answer'))).resolves.toBe('done');
    await expect(rowText(step, 'Outcome')).resolves.toBe('reward 1 · terminated');
    await expect(states(list)).resolves.toEqual(['done', 'done', 'done']);
    await expect(shownText(unhinted.getByTestId('tool-answer'))).resolves.toBe('done');
    await expect(rowText(unhinted.getByTestId('tool-step'), 'Environment')).resolves.toMatch(
      /^Not accepted: instruction 1 of 3 is still open/,
    );
    await screenshot(page, 'tool-use-demo-replay-end');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('plays it yourself with the tool form, on the same seed with the hint, and wins as the agent did', async () => {
    await page.getByLabel('Play with the hint').check();
    await page.getByRole('button', { name: 'Start playing' }).click();
    const form = page.getByRole('form', { name: 'Call a tool' });
    await form.getByLabel('Tool').waitFor();
    const yours = page.getByRole('list', { name: 'Your play' });
    const room = /heading to the (\w+);/.exec(await preText(yours.locator('pre').first()))![1]!;
    const call = async (tool: string, values: Record<string, string>, turn: number) => {
      await form.getByLabel('Tool').selectOption(tool);
      for (const [name, value] of Object.entries(values)) {
        const field = form.getByLabel(new RegExp(`^${name} `));
        if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
        else await field.fill(value);
      }
      await form.getByRole('button', { name: `Call ${tool}` }).click();
      await yours.getByText(`Turn ${turn}: you sent`).waitFor({ timeout: 30_000 });
    };
    // A required argument left empty is caught by the form before anything is sent.
    await form.getByLabel('Tool').selectOption('set_light');
    await form.getByRole('button', { name: 'Call set_light' }).click();
    await expect(shownText(form.getByRole('alert'))).resolves.toBe('room is required');
    await call('set_light', { room, power: 'on' }, 1);
    const turn1 = yours.getByTestId('tool-step').first();
    await expect(shownText(turn1.getByTestId('step-met'))).resolves.toMatch(/^Instruction 1:/);
    await screenshot(page, 'tool-use-demo-tool-form');
    await call('set_heating', { room, mode: 'comfort' }, 2);
    await call('status', { room }, 3);
    await page.getByRole('textbox', { name: 'Final answer' }).fill('done');
    await page.getByRole('button', { name: 'Give the answer' }).click();
    await page
      .getByText(shownPattern(/The episode is over after 4 turns: your return is 1\.00/))
      .waitFor({ timeout: 30_000 });
    await expect(shownText(yours.getByText('Turn 1: you sent').locator('code'))).resolves.toBe(
      `<tool_call>{"name":"set_light","arguments":{"room":"${room}","power":"on"}}</tool_call>`,
    );
    await expect(shownText(page.getByTestId('your-return'))).resolves.toBe('1.00');
    await screenshot(page, 'tool-use-demo-play-yourself');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("filters the explorer by domain: the task's own domain lists it, every other domain none", async () => {
    await page.getByRole('button', { name: 'Explorer', exact: true }).click();
    const status = page.getByTestId('explorer-status');
    await status.filter({ hasText: shownPattern(/^1 environment\b/) }).waitFor({ timeout: 30_000 });
    const domain = page.getByLabel('Domain');
    const options = (
      await domain.locator('option').evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value))
    ).filter((value) => value !== '');
    expect(options).toHaveLength(10);
    const counts: number[] = [];
    for (const option of options) {
      await domain.selectOption(option);
      await status.filter({ hasText: shownPattern(/^\d+ environments?\b/) }).waitFor({ timeout: 30_000 });
      counts.push(Number(/(\d+) environment/.exec(await shownText(status))![1]));
    }
    expect(counts.filter((n) => n === 1)).toHaveLength(1);
    expect(counts.filter((n) => n === 0)).toHaveLength(9);
    await domain.selectOption('');
  });

  it('Learn explains the setting on the same play, and Charts add the per-domain charts', async () => {
    await page.getByRole('button', { name: 'Learn' }).click();
    const section = page.getByRole('region', { name: 'Tool use: calls, results and instructions revealed one by one' });
    await expect(shownText(section.getByTestId('tool-name').first())).resolves.toBe('set_light');
    await expect(section.getByTestId('step-met').count()).resolves.toBe(3);
    await expect(
      section
        .getByText(shownPattern(/Without the hint, the agent's plays met 0 of 3 instructions, with returns 0\.00/))
        .count(),
    ).resolves.toBe(1);
    await screenshot(page, 'tool-use-demo-learn');
    await page.getByRole('button', { name: 'Charts' }).click();
    await page.getByRole('heading', { name: 'Win rate per domain (tool use)' }).waitFor({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'Regret per domain (tool use)' }).count()).resolves.toBe(1);
  });
});
