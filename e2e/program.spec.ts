import { expect, test } from '@playwright/test';
import { EditPage } from './pages/edit.ts';
import { LivePage } from './pages/live.ts';
import { StepPage } from './pages/step.ts';

// Your own programs: typed into the editor, checked as you type, and taken into every mode.

test('a typed mistake is listed where it is; fixed, the program steps, explores and shares', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const edit = new EditPage(page);
  await edit.openCompiledExample('first');
  await expect(edit.check()).toContainText('2 threads (P0 on CPU0, P1 on CPU1)');

  // A statement without its semicolon: one problem, by line and column, and Step refuses.
  await edit.text().getByText('READ_ONCE').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await expect(edit.check()).toHaveText('1 problem:');
  await expect(edit.problems()).toHaveText([
    'line 15, column 21: expected `;` after the statement, at the end of the line.',
  ]);
  await expect(edit.button('Step through it')).toHaveAttribute('aria-disabled', 'true');
  // The problem's button puts the cursor where the `;` belongs; the fix is typed there.
  await edit.problems().first().click();
  await expect(edit.text()).toBeFocused();
  await page.keyboard.type(';');
  await edit.compiles();

  // Explore it, one press: the Explore panel opens on the program and explores it; the lost
  // update is found, with the value the invariant judged.
  await edit.button('Explore it').click();
  const step = new StepPage(page);
  await expect(step.heading()).toContainText('my-counter');
  const panel = page.getByRole('complementary', { name: 'Explore panel' });
  // Called by its own name, not by the route its links take (`#/step/program`).
  await expect(panel.getByText('Every reachable state of my-counter')).toBeVisible();
  const outcomes = panel.getByRole('list', { name: 'Outcomes' }).getByRole('listitem');
  await expect(outcomes).toHaveCount(2);
  const lost = outcomes.filter({ hasText: 'no-lost-update' });
  await expect(lost).toContainText('hits=1');
  await expect(lost).toContainText('hits = 1, but the exact total is 2: 1 lost');
  await lost.getByRole('button', { name: /^Replay #\d in Step mode$/ }).click();
  await step.forward(4);
  await expect(step.lastNarration()).toHaveText(
    /CPU\d `WRITE_ONCE\(hits, v \+ 1\)`: writes hits = 1; P\d finishes$/,
  );
  await expect(step.invariant('no-lost-update')).toHaveAccessibleName(
    'no-lost-update: violated (hits = 1, but the exact total is 2: 1 lost)',
  );

  // The link carries the program: a new page opens the same program at the same moment.
  await page.getByRole('button', { name: 'Copy link' }).click();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toContain('#/step/program?z=');
  const other = await context.newPage();
  await other.goto(url);
  const again = new StepPage(other);
  await expect(again.heading()).toContainText('my-counter');
  await expect(again.timelinePosition()).toHaveValue('4');
  await expect(again.memory('hits')).toHaveText('1');
  expect(errors).toEqual([]);
});

test('every mistake of a program is listed, and a body left open is named', async ({ page }) => {
  const edit = new EditPage(page);
  await edit.open();
  await edit.text().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(
    'int x;\nP0()\n{\n\tWRITE_ONCE(x, 1)\n\tsmp_mbb();\n}\nP1()\n{\n\tthis_cpu_ad(x, 1);\n}\n',
  );
  await expect(edit.check()).toHaveText('3 problems:');
  await expect(edit.problems()).toHaveText([
    'line 4, column 18: expected `;` after the statement, at the end of the line.',
    'line 5, column 2: `smp_mbb` is not a primitive the lab knows, nor a function of the program. Did you mean `smp_mb`?',
    'line 9, column 2: `this_cpu_ad` is not a primitive the lab knows, nor a function of the program. Did you mean `this_cpu_add`?',
  ]);

  // P0's body without its `}`: the error is where the `}` belongs, not at the clause after it.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText('int x;\nP0()\n{\n\tint r0 = READ_ONCE(x);\n\nexists (0:r0=1)\n');
  await expect(edit.check()).toHaveText('1 problem:');
  await expect(edit.problems()).toHaveText([
    'line 4, column 24: expected `}` to close P0’s body (its `{` is on line 3) before `exists` on line 6. A final clause comes after the threads.',
  ]);
});

test('a litmus test steps with its variables drawn: under tso a store waits in its buffer', async ({
  page,
}) => {
  const edit = new EditPage(page);
  await edit.openCompiledExample('SB');
  await page.getByRole('combobox', { name: 'Memory model' }).selectOption('tso');
  await edit.button('Step through it').click();
  const step = new StepPage(page);
  await step.stepCpu(0);
  // The picture says what the narration says: x = 1 is in CPU0's buffer, memory holds 0.
  await expect(step.lastNarration()).toContainText('waits in CPU0');
  const chart = page.getByRole('img', { name: /^The shared variables: / });
  await expect(chart).toHaveAccessibleName(
    "The shared variables: x = 0, y = 0. x = 1 waits in CPU0's store buffer.",
  );
  await expect(chart.getByText('The shared variables', { exact: true })).toBeVisible();
  await expect(chart.getByText('x = 1', { exact: true })).toBeVisible();
});

test('edit a copy of percpu-classic without preempt_disable: Explore finds the lost update', async ({
  page,
}) => {
  const step = new StepPage(page);
  await step.open('#/step/percpu-classic');
  await page.getByRole('link', { name: 'Edit a copy' }).click();
  const edit = new EditPage(page);
  await expect(edit.text()).toContainText('__percpu_counter_add');
  await edit.compiles();
  await expect(edit.check()).toContainText('judges no-lost-update');
  await edit.clearLine('preempt_disable();');
  await edit.clearLine('preempt_enable();');
  await edit.compiles();
  await edit.button('Explore it').click();
  const panel = page.getByRole('complementary', { name: 'Explore panel' });
  // The copy keeps the entry's bounds (one migration), and is explored at once.
  await expect(panel.getByRole('spinbutton', { name: 'Migrations' })).toHaveValue('1');
  const broken = panel
    .getByRole('list', { name: 'Outcomes' })
    .getByRole('listitem')
    .filter({ hasText: 'no-lost-update' });
  // A few hundred states: the status says Done (or, on a failure, what the run said instead).
  await expect(panel.getByRole('status')).toContainText('Done:', { timeout: 15_000 });
  await expect(broken.first()).toBeVisible();
  // The first such witness, replayed, migrates the task between its read and its write.
  await broken
    .first()
    .getByRole('button', { name: /^Replay/ })
    .click();
  await expect(step.heading()).toContainText('percpu-classic');
});

test('a counter program runs live on real workers, and a program with no counter says why not @timing', async ({
  page,
}) => {
  const edit = new EditPage(page);
  await edit.openCompiledExample('SB');
  await expect(edit.button('Run it live')).toHaveAttribute('aria-disabled', 'true');
  await expect(edit.button('Run it live')).toHaveAttribute('title', /declare one with `counter/);
  await edit.openExample('first');
  await edit.compiles();
  await edit.button('Run it live').click();
  const live = new LivePage(page);
  await expect(page.getByRole('heading', { level: 2 })).toContainText('my-counter');
  await live.runFor(800);
  expect(await live.total(/^Adds/)).toBeGreaterThan(1000);
  expect(await live.total(/^Exact total/)).toBe(await live.total(/^Adds/));
  await expect(live.verdict('no-lost-update')).toBeVisible();
});
