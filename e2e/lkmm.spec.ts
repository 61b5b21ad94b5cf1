import { expect, test } from '@playwright/test';
import { seriousViolations } from './pages/axe.ts';
import { AxiomaticPage } from './pages/axiomatic.ts';
import { EditPage } from './pages/edit.ts';
import { StepPage } from './pages/step.ts';

// The kernel's memory model (memory lkmm) in the browser: herd7's answer in the Explore panel,
// execution graphs on the stage, Why not?, Be the memory system, and Step saying why it has no
// steps. As a new user meets it: a litmus test from the editor's examples.

test('MP with smp_wmb/smp_rmb under lkmm: Never, Why not? names the cycle, and the memory system closes the door', async ({
  page,
}) => {
  // An axe run over the stage at the end: longer than one default timeout on a busy machine.
  test.setTimeout(60_000);
  const edit = new EditPage(page);
  await edit.openCompiledExample('MP');
  // A herd7 litmus file opens under the kernel's own model, as `lab check` answers it.
  await expect(page.getByRole('combobox', { name: 'Memory model' })).toHaveValue('lkmm');
  await edit.button('Explore it').click();

  const lkmm = new AxiomaticPage(page);
  await lkmm.answer();
  await expect(lkmm.verdict().getByRole('heading')).toHaveText('Under lkmm: Never');
  await expect(lkmm.verdict()).toContainText('herd7’s verdict: No.');
  await expect(lkmm.verdict()).toContainText('Observation MP+wmb+rmb Never 0 3');
  await expect(lkmm.verdict()).toContainText('Model lkmm');
  await expect(lkmm.endStates()).toHaveText([
    /1:r0=0; 1:r1=0; \(1 execution\)/,
    /1:r0=0; 1:r1=1; \(1 execution\)/,
    /1:r0=1; 1:r1=1; \(1 execution\)/,
  ]);

  // Why not? The one candidate that would reach the condition, and the cycle that forbids it.
  await lkmm.whyNot();
  await expect(
    lkmm.graph(/^Why not 1:r0=1; 1:r1=0\? Candidate 1 of 1: forbidden by lkmm's happens-before$/),
  ).toBeVisible();
  await expect(lkmm.cycleSteps()).toHaveText([
    'rmb the smp_rmb() between them orders R flag=1 before R data=0',
    "fre R data=0 reads a value older than W data=1, so it comes before W data=1 in memory's order",
    'wmb the smp_wmb() between them orders W data=1 before W flag=1',
    'rfe R flag=1 reads the value W flag=1 wrote',
  ]);
  await expect(await lkmm.edgeRows()).toContainText([/P1: R data=0\s*fre/]);

  // Be the memory system: the reader sees the flag, then the old data, and the door closes.
  await lkmm.explorePanel().getByRole('button', { name: 'Be the memory system' }).click();
  await expect(lkmm.narration()).toHaveText([
    '4 candidate executions, 3 of them allowed by the model.',
  ]);
  await lkmm.chooseWrite('P1: R flag', 'P0: W flag=1');
  await expect(lkmm.narration().last()).toHaveText(
    'P1: R flag reads from P0: W flag=1. 1 of the 2 candidate executions left are allowed.',
  );
  await lkmm.chooseWrite('P1: R data', 'init data=0');
  await expect(lkmm.memorySystem()).toContainText(
    'The door is closed: no execution is possible. Every candidate left breaks happens-before.',
  );
  await expect(lkmm.narration().last()).toContainText(
    'No execution is possible any more: every candidate left breaks happens-before.',
  );
  await expect(lkmm.graph(/a candidate lkmm forbids, ending in 1:r0=1; 1:r1=0$/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('Step under lkmm says why it cannot step and shows the graph instead; without smp_rmb the model allows the outcome', async ({
  page,
}) => {
  const edit = new EditPage(page);
  await edit.open();
  await edit.openExample('MP');
  await edit.clearLine('smp_rmb();');
  await edit.compiles();
  await edit.button('Step through it').click();

  const lkmm = new AxiomaticPage(page);
  await expect(lkmm.noSteps().getByRole('heading')).toHaveText(
    'No steps to take under the kernel’s memory model (lkmm)',
  );
  await expect(lkmm.noSteps()).toContainText('there is no single interleaving to step through');
  // No CPU to step, and the digit keys step nothing (the link, which holds the moment, stays).
  await expect(page.getByRole('group', { name: 'CPU 0 controls' })).toHaveCount(0);
  const link = page.url();
  await page.keyboard.press('Digit0');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  expect(page.url()).toBe(link);
  await page.keyboard.press('Escape');

  await lkmm.noSteps().getByRole('button', { name: 'Show an execution graph' }).click();
  // The condition's state is reached: the graph shows an execution that ends there.
  const graph = lkmm.graph(/^An execution that ends in 1:r0=1; 1:r1=0: allowed by lkmm/);
  await expect(graph).toBeVisible();
  await expect(await lkmm.edgeRows()).toContainText([/P0: W flag=1\s*rfe.*P1: R flag=1/]);

  // Back to an interleaving model: the lanes and their controls return.
  await page.getByRole('button', { name: 'Step it under sc instead' }).click();
  await expect(page.getByRole('group', { name: 'CPU 0 controls' })).toBeVisible();
});

test('an IRQ inside the add loses an update under lkmm too, each outcome once', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/irq-local-rmw');
  await step.openPanel('Parameters');
  await page
    .getByRole('group', { name: 'Parameters' })
    .getByRole('combobox', { name: /^memory/ })
    .selectOption('lkmm');
  await step.openPanel('Explore');
  const lkmm = new AxiomaticPage(page);
  await lkmm.answer();
  // The handler's events go into the task's program order where the machine delivers it: before
  // the load or after the store (2), between them (the lost update), or not at all. Each once.
  await expect(lkmm.endStates()).toHaveText([
    /c=16 irqs=1 exact=16 \(2 executions\)/,
    /c=11 irqs=1 exact=16 ✗ no-lost-update \(1 execution\)/,
    /c=11 irqs=0 exact=11 \(1 execution\)/,
  ]);
});

test('a program the model cannot take is refused with the reason, and sc is one press away', async ({
  page,
}) => {
  // Sixteen reads of x, each 0 or 1: more ways to run than the engine enumerates.
  const reads = Array.from({ length: 16 }, (_, i) => `r${String(i)} = READ_ONCE(x);`).join(' ');
  const regs = Array.from({ length: 16 }, (_, i) => `r${String(i)}`).join(', ');
  const text = `C many\nint x;\nP0() { int ${regs}; ${reads} }\nP1() { WRITE_ONCE(x, 1); }\nexists (x=1)\n`;
  const edit = new EditPage(page);
  await edit.open();
  await edit.text().click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
  await edit.compiles();
  await page.getByRole('combobox', { name: 'Memory model' }).selectOption('lkmm');
  await edit.button('Explore it').click();
  const step = new StepPage(page);
  await step.openPanel('Explore');
  const lkmm = new AxiomaticPage(page);
  await lkmm.answer();
  await expect(lkmm.explorePanel()).toContainText(
    'The kernel’s memory model (lkmm) cannot answer this program: P0 has more than 20000 ways to run',
  );
  await lkmm.explorePanel().getByRole('button', { name: 'Use memory sc' }).click();
  // The explorer's panel is back.
  await expect(
    lkmm.explorePanel().getByRole('button', { name: 'Explore', exact: true }),
  ).toBeVisible();
  expect(page.url()).not.toContain('memory=lkmm');
});

test('percpu-rwsem under lkmm names its data race and answers again with the accesses marked', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-rwsem?memory=lkmm');
  await step.openPanel('Explore');
  const lkmm = new AxiomaticPage(page);
  await lkmm.answer();
  await expect(lkmm.endState('reader_in=1 writer_in=1')).toContainText('✗ exclusive');
  const races = lkmm.explorePanel().getByRole('region', { name: 'Data races' });
  await expect(races.getByRole('listitem').first()).toContainText(
    '(sum += per_cpu(read_count, cpu);) reads it plainly',
  );
  await expect(races).toContainText(
    'With the racing accesses marked (as READ_ONCE() and WRITE_ONCE() mark them): 3 end states, no invariant broken, and no data race.',
  );
  const notJudged = lkmm.explorePanel().getByRole('region', { name: 'Not judged under lkmm' });
  await expect(notJudged).toHaveCount(0);
});

test('a herd7 file pasted into the editor answers under lkmm at once from Explore it, naming it; sc in the panel says otherwise', async ({
  page,
}) => {
  const edit = new EditPage(page);
  await edit.open();
  await edit.text().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(SB_POONCEONCES);
  await edit.compiles();
  await edit.button('Explore it').click();

  const lkmm = new AxiomaticPage(page);
  await expect(lkmm.memoryModel()).toHaveValue('lkmm');
  // "Explore it" explores: the answer comes with no second press inside the panel.
  await lkmm.answered();
  // As herd7 answers it with the kernel's model (SB+poonceonces.litmus.expected: Sometimes 1 3).
  await expect(lkmm.verdict().getByRole('heading')).toHaveText('Under lkmm: Sometimes');
  await expect(lkmm.verdict()).toContainText('Observation SB+poonceonces Sometimes 1 3');

  // The same test under sequential consistency: the explorer answers, and says which model.
  await lkmm.memoryModel().selectOption('sc');
  await lkmm.explorePanel().getByRole('button', { name: 'Explore', exact: true }).click();
  await expect(lkmm.verdict().getByRole('heading')).toHaveText('Under sc: Never');
  expect(page.url()).not.toContain('memory=lkmm');
});

test('a herd7 file chosen under sc in the editor explores under sc, names it, and its link keeps it', async ({
  page,
}) => {
  const edit = new EditPage(page);
  await edit.open();
  await edit.text().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(SB_POONCEONCES);
  await edit.compiles();
  await page.getByRole('combobox', { name: 'Memory model' }).selectOption('sc');
  await edit.button('Explore it').click();

  const lkmm = new AxiomaticPage(page);
  await expect(lkmm.memoryModel()).toHaveValue('sc');
  // Every answer names its model: the headline and the status line.
  await expect(lkmm.verdict().getByRole('heading')).toHaveText('Under sc: Never');
  await expect(lkmm.explorePanel().getByRole('status').first()).toContainText(
    /Done: .* 3 outcomes under sc/,
  );
  // A herd7 file's own model is lkmm: the link says sc, so it opens again as it was left.
  await page.reload();
  await new StepPage(page).openPanel('Explore');
  await expect(lkmm.memoryModel()).toHaveValue('sc');
});

test('a link opens the seqcount sum under lkmm: the torn sum, its execution from the keyboard, and a bad model explained', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/seqcount-sum?variant=no-rmb&memory=lkmm');
  const lkmm = new AxiomaticPage(page);
  await expect(lkmm.noSteps()).toBeVisible();
  await step.openPanel('Explore');
  await expect(lkmm.memoryModel()).toHaveValue('lkmm');
  await lkmm.answer();
  await expect(lkmm.verdict().getByRole('heading')).toHaveText('Under lkmm: Sometimes');
  // The torn sum the reader accepts, opened with the keyboard.
  const torn = lkmm.endStates().filter({ hasText: '✗ exact-sum' }).first();
  await torn.getByRole('button', { name: 'Show an execution' }).focus();
  await page.keyboard.press('Enter');
  await expect(lkmm.graph(/^An execution that ends in .*1:ok=1.*: allowed by lkmm/)).toBeVisible();
  await expect(await lkmm.edgeRows()).toContainText([/rfe/]);

  // With both barriers the model forbids it, and Why not? says which cycle.
  await lkmm.explorePanel().getByRole('button', { name: 'Close' }).click();
  await step.open('#/step/seqcount-sum?variant=both&memory=lkmm');
  await step.openPanel('Explore');
  await lkmm.answer();
  await expect(lkmm.verdict().getByRole('heading')).toHaveText('Under lkmm: Never');
  await lkmm.whyNot();
  await expect(lkmm.graph(/^Why not .*forbidden by lkmm's/)).toBeVisible();
  await expect(lkmm.cycleSteps().filter({ hasText: 'smp_rmb()' }).first()).toBeVisible();

  // A model the lab does not know: said, and the page stays under its default.
  await step.open('#/step/seqcount-sum?memory=arm');
  await expect(page.getByText("memory must be one of sc, tso, lkmm; got 'arm'")).toBeVisible();
  await expect(page.getByRole('group', { name: 'CPU 0 controls' })).toBeVisible();
});

test("a counter's graph boxes each call and folds its loop, unfolded from the keyboard", async ({
  page,
}) => {
  // An axe run over the stage at the end: longer than one default timeout on a busy machine.
  test.setTimeout(60_000);
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic?memory=lkmm');
  const lkmm = new AxiomaticPage(page);
  await lkmm.noSteps().getByRole('button', { name: 'Show an execution graph' }).click();
  await expect(lkmm.graph(/^An execution that ends in /)).toBeVisible();
  // P0's three adds repeat each other: folded into one box, a button that says what it hides.
  const show = page.getByRole('button', {
    name: 'Show the 3 iterations of for (i = 0; i < 3; i++) in P0 (6 events)',
  });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await expect(lkmm.graph()).toHaveAccessibleDescription(
    /The picture folds the 3 iterations of for \(i = 0; i < 3; i\+\+\) in P0 \(6 events/,
  );
  await expect(page.getByRole('list', { name: 'Key' })).toContainText(
    'small and grey: what the model adds around the program, the scheduler’s turns',
  );
  await show.focus();
  await page.keyboard.press('Enter');
  // The same button folds them again, and keeps the keyboard's focus.
  const fold = page.getByRole('button', {
    name: 'Fold the 3 iterations of for (i = 0; i < 3; i++) in P0 into one',
  });
  await expect(fold).toBeFocused();
  await expect(fold).toHaveAttribute('aria-expanded', 'true');
  await expect(lkmm.graph()).not.toHaveAccessibleDescription(/The picture folds/);
  // Each add is boxed, labelled by its call.
  await expect(lkmm.graph().getByText('__percpu_counter_add(…)')).toHaveCount(3);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press(' ');
  await expect(show).toBeFocused();
});

const SB_POONCEONCES = `C SB+poonceonces

(*
 * Result: Sometimes
 *)

{}

P0(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*x, 1);
	r0 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*y, 1);
	r0 = READ_ONCE(*x);
}

exists (0:r0=0 /\\ 1:r0=0)
`;
