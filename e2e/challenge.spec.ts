import { expect, type Page, test } from '@playwright/test';
import { challengeParams, challengeStats, findLesson, score } from '../src/lessons/index.ts';
import { parseSchedule } from '../src/machine/schedule.ts';
import { findScenario } from '../src/scenarios/index.ts';
import type { Scenario } from '../src/scenarios/types.ts';
import { ChallengePanelPage } from './pages/challenge.ts';
import { StepPage } from './pages/step.ts';

const KEY = 'percpu-lab:progress';

// The solution comes from the lessons data (the last hint's schedule), and the figures the panel
// must show are computed here in Node by the same pure functions the worker runs.
const sc = findScenario('global-plain') as Scenario;
const loseOne = findLesson('global-plain')?.challenges.find((c) => c.id === 'lose-one');
if (!loseOne) throw new Error('global-plain lost its challenge lose-one');
const TITLE = loseOne.title;
const solution = loseOne.hints.at(-1)?.schedule ?? '';
const solutionScore = score(
  sc.build(challengeParams(sc, loseOne)).machine,
  parseSchedule(solution),
);
const stats = challengeStats(sc, loseOne);

/** Step mode on scenario `id`, with its Challenges panel shown. */
async function openChallenges(page: Page, id: string) {
  const step = new StepPage(page);
  const panel = new ChallengePanelPage(page);
  await step.open(`#/step/${id}`);
  await panel.show();
  return { step, panel };
}

const scoreText = `${solutionScore.interventions} interventions, ${solutionScore.switches} switches, ${solutionScore.steps} steps`;

test('a challenge is solved by stepping, scored, kept across a reload, and reset', async ({
  page,
}) => {
  const { step, panel } = await openChallenges(page, 'global-plain');
  await expect(panel.mark(TITLE)).toHaveText('Not solved yet.');
  await panel.start(TITLE);
  await expect(panel.attempt(TITLE)).toContainText('In progress: 0 steps');

  for (const ev of solution.split(' ')) await step.take(ev, 'button');

  const attempt = panel.attempt(TITLE);
  await expect(attempt).toContainText('Solved: the run ends with no-lost-update broken.');
  await expect(attempt).toContainText(`Score: ${scoreText}.`);
  await expect(attempt).toContainText(
    `${stats.reachingEndStates} end states of ${stats.endStates} reach the goal (end states, not schedules`,
  );
  await expect(attempt).toContainText(
    `you switched CPUs ${solutionScore.switches} times, the simplest ${stats.simplest?.score.switches} time.`,
  );
  await expect(panel.mark(TITLE)).toHaveText(`✓ Solved. Your best: ${scoreText}.`);
  await step.screenshot('challenge-solved');

  await page.reload();

  await panel.show();
  await expect(panel.mark(TITLE)).toHaveText(`✓ Solved. Your best: ${scoreText}.`);
  await expect(panel.courseProgress()).toContainText('Course progress: 1 of ');

  await panel.resetProgress();
  await expect(panel.mark(TITLE)).toHaveText('Not solved yet.');
  await expect(panel.courseProgress()).toContainText('Course progress: 0 of ');
  expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toBeNull();
});

test('a corrupted saved record is shown, left alone, and Reset recovers', async ({ page }) => {
  const step = new StepPage(page);
  const panel = new ChallengePanelPage(page);
  const bad = JSON.stringify({
    version: 1,
    lessons: {},
    challenges: { 'global-plain/lose-one': { kind: 'solved' } },
  });
  await step.open('#/step/global-plain');
  await panel.show();
  await page.evaluate(
    ([k, v]) => {
      localStorage.setItem(k, v);
    },
    [KEY, bad] as const,
  );
  await page.reload();
  await panel.show();
  await expect(panel.problem()).toContainText(
    'Saved progress could not be read: progress.challenges["global-plain/lose-one"] lacks the field "schedule".',
  );
  await expect(panel.mark(TITLE)).toHaveText('Not solved yet.');

  // Solving now is kept in memory only: the record stays for the student to decide.
  await panel.start(TITLE);
  for (const ev of solution.split(' ')) await step.take(ev, 'button');
  await expect(panel.mark(TITLE)).toContainText('✓ Solved.');
  expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toBe(bad);

  await panel.problem().getByRole('button', { name: 'Reset progress' }).click();
  await expect(panel.problem()).toBeHidden();
  await expect(panel.mark(TITLE)).toHaveText('Not solved yet.');
  expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toBeNull();

  // Saving works again.
  await panel.start(TITLE);
  for (const ev of solution.split(' ')) await step.take(ev, 'button');
  await expect(panel.mark(TITLE)).toContainText('✓ Solved.');
  await page.reload();
  await panel.show();
  await expect(panel.mark(TITLE)).toContainText('✓ Solved.');
});

test('hints reveal one at a time, and the last one’s schedule solves by keyboard', async ({
  page,
}) => {
  const { step, panel } = await openChallenges(page, 'global-plain');
  const total = loseOne.hints.length;
  await expect(panel.hints(TITLE)).toHaveCount(0);
  for (let i = 1; i <= total; i++) {
    const button = panel.hintButton(TITLE);
    await expect(button).toHaveText(`Show a hint (${i} of ${total})`);
    // By keyboard: focus the button and press Enter.
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(panel.hints(TITLE)).toHaveCount(i);
    await expect(panel.hints(TITLE).nth(i - 1)).toContainText(loseOne.hints[i - 1]?.text ?? '');
  }
  await expect(panel.hintButton(TITLE)).toHaveText(`All ${total} hints shown`);
  await expect(panel.hintButton(TITLE)).toHaveAttribute('aria-disabled', 'true');
  await expect(panel.hintButton(TITLE)).toHaveAccessibleDescription(`All ${total} hints are shown`);

  await panel.tryHintSchedule(TITLE, total);
  await expect(step.timelinePosition()).toHaveValue('0');
  await expect(panel.attempt(TITLE)).toContainText(`${solutionScore.steps} more events are loaded`);
  await step.leaveFields();
  await step.forwardByKey(solutionScore.steps);
  await expect(panel.attempt(TITLE)).toContainText('Solved:');
  // Solved with every hint shown: the mark says so (finding 29).
  await expect(panel.mark(TITLE)).toContainText(`✓ Solved, with ${total} hints shown.`);
});

test('more interventions than the bound are refused as over the bound', async ({ page }) => {
  const { step, panel } = await openChallenges(page, 'irq-local-rmw');
  const ch = findLesson('irq-local-rmw')?.challenges.find((c) => c.mode === 'reach');
  if (!ch) throw new Error('irq-local-rmw lost its reach challenge');
  await panel.start(ch.title);
  await expect(panel.challenge(ch.title)).toContainText('at most 1 IRQ');
  for (const ev of ['irq0', '0', 'irq0']) await step.take(ev, 'button');
  await expect(panel.attempt(ch.title)).toContainText(
    'Over the bound: this challenge allows fewer: 2 IRQs (at most 1). Step back and try with fewer.',
  );
  await step.back();
  await expect(panel.attempt(ch.title)).toContainText('In progress: 2 steps, 1 intervention of 1');
});

test('an impossible challenge is settled by the exhaustive check', async ({ page }) => {
  const { panel } = await openChallenges(page, 'global-atomic');
  const ch = findLesson('global-atomic')?.challenges.find((c) => c.mode === 'impossible');
  if (!ch) throw new Error('global-atomic lost its impossible challenge');
  const s = challengeStats(findScenario('global-atomic') as Scenario, ch);
  await expect(panel.mark(ch.title)).toHaveText('Not settled yet.');
  await panel.challenge(ch.title).getByRole('button', { name: 'Check every schedule' }).click();
  await expect(panel.exhaustiveCheck(ch.title)).toHaveText(
    `Settled: Explore followed every schedule within the bounds (none: CPU steps only) to its end. Of ${s.endStates} end states, none reaches the goal (breaks no-lost-update).`,
  );
  await expect(panel.mark(ch.title)).toHaveText(
    '✓ Settled: no schedule within the bounds reaches it.',
  );
  // Settled, the attempt no longer reads "In progress" beside the tick.
  await panel.start(ch.title);
  await expect(panel.attempt(ch.title)).toHaveText(
    'Settled: you can still step a schedule to see for yourself why none reaches the goal.',
  );
});

test('a link names the challenge: it opens on it, and the address keeps the attempt', async ({
  page,
}) => {
  const step = new StepPage(page);
  const panel = new ChallengePanelPage(page);
  // As a teacher hands it out, written by hand.
  await page.goto('/#/step/global-plain?challenge=lose-one');
  await expect(panel.region()).toBeVisible();
  await expect(panel.attempt(TITLE)).toContainText('In progress: 0 steps');
  for (const ev of ['0', '1']) await step.take(ev, 'button');
  await expect(panel.attempt(TITLE)).toContainText('In progress: 2 steps');
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/challenge=lose-one/);
  // Reopened (a student's shared link): the same attempt, at the same moment.
  await page.reload();
  await expect(panel.attempt(TITLE)).toContainText('In progress: 2 steps');
  await expect(step.timelinePosition()).toHaveValue('2');
  // Leaving the challenge drops it from the address.
  await panel.challenge(TITLE).getByRole('button', { name: 'Leave challenge' }).click();
  await expect.poll(() => page.evaluate(() => location.hash)).not.toMatch(/challenge=/);
});

test('a link with an empty challenge name shows the scenario it names, without a word', async ({
  page,
}) => {
  const step = new StepPage(page);
  await page.goto('/#/step/percpu-classic?challenge=');
  await expect(step.heading()).toContainText('percpu-classic');
  await expect(page.getByText(/is not a challenge's name|has no challenge/)).toHaveCount(0);
});

test("a challenge's goal says what its names mean, in the scenario's words", async ({ page }) => {
  const { panel } = await openChallenges(page, 'global-plain');
  const ch = findLesson('global-plain')?.challenges.find((c) => c.id === 'lose-two');
  if (!ch) throw new Error('global-plain lost lose-two');
  const terms = panel.challenge(ch.title).getByRole('list', { name: "What the goal's names mean" });
  await expect(terms).toContainText('nr:');
  await expect(terms).toContainText('exact:');
});
