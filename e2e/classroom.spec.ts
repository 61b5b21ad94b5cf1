import {
  type Browser,
  type BrowserContext,
  devices,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempSchema, TEST_DATABASE_URL } from '../src/server/testing.ts';
import { seriousViolations } from './pages/axe.ts';
import { StepPage } from './pages/step.ts';

// A class, as a teacher and students live it, against a real classroom server (`npm run
// classroom`) that each test starts as a child process on its own port and its own data folder,
// so that it can stop and start it mid-class. The built app must exist (`npm run build`).
//
// Every test runs once on PGlite (the default: a folder on disk) and once on PostgreSQL when
// CLASSROOM_TEST_DATABASE_URL names a database (.ci/run starts Debian's postgresql and sets it),
// each test in a schema of its own; without it (never in CI) only the PGlite runs are declared.
// Nothing here waits a duration: each
// step waits for what a user would see.

const ROOT = join(import.meta.dirname, '..');

/** The witness the class follows: global-plain's lost update, two CPUs from 100. */
const LOST_UPDATE = '#/step/global-plain?cpus=2&iterations=1&initial=100&sched=0+1+0+1&at=0';

/** A classroom server run as `npm run classroom` runs it. */
class ClassroomServer {
  private child: ChildProcess | null = null;
  url = '';
  constructor(
    readonly port: number,
    readonly dataDir: string,
    readonly databaseUrl: string | null,
  ) {}

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'src/server/main.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(this.port),
          HOST: '127.0.0.1',
          CLASSROOM_DATA: this.dataDir,
          DATABASE_URL: this.databaseUrl ?? '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    let errors = '';
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    this.url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^listening on (http:\/\/\S+)$/m.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => {
        reject(new Error(`the classroom server stopped (${String(code)}): ${out}${errors}`));
      });
    });
  }

  /** Stops it as an operator would (SIGTERM), and waits until it has gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
}

/** The tests' titles, in order: each takes its own port (see beforeEach). */
const tests = [
  'a teacher and three students: join, follow, answer, go alone, and survive a restart',
  "a student's page that sends a teacher's move is refused, and no stage moves",
  "a challenge: a student's schedule is judged by the server and listed for the teacher",
];

// The PostgreSQL runs are declared only where there is a PostgreSQL to run them on; in CI there
// always is (src/server/testing.ts refuses to load without one).
const databases: readonly { name: string; url: string | null }[] = [
  { name: 'PGlite', url: null },
  ...(TEST_DATABASE_URL ? [{ name: 'PostgreSQL', url: TEST_DATABASE_URL }] : []),
];

for (const [d, db] of databases.entries()) {
  test.describe(`a class on ${db.name}`, () => {
    let server: ClassroomServer;
    /** Set once the test has its server (a skipped PostgreSQL run has none). */
    let dataDir: string | null = null;
    /** PostgreSQL: the test's own schema, dropped after it. */
    let schema: { url: string; drop: () => Promise<void> } | null = null;
    const contexts: BrowserContext[] = [];

    test.beforeEach(async () => {
      const info = test.info();
      dataDir = await mkdtemp(join(tmpdir(), 'classroom-e2e-'));
      // Each test its own port: 4310 + 10 per database + the test's place in the file.
      const port = 4310 + 10 * d + tests.indexOf(info.title);
      schema = db.url ? await tempSchema(db.url) : null;
      server = new ClassroomServer(port, dataDir, schema?.url ?? null);
      await server.start();
    });

    test.afterEach(async () => {
      await Promise.all(contexts.splice(0).map((c) => c.close()));
      if (dataDir === null) return;
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
      dataDir = null;
      await schema?.drop();
      schema = null;
    });

    /** A new person in a browser of their own (a phone with `phone`). */
    async function person(browser: Browser, phone = false): Promise<Page> {
      const c = await browser.newContext({
        ...(phone ? devices['Pixel 7'] : { viewport: { width: 1280, height: 720 } }),
        reducedMotion: 'reduce',
        baseURL: server.url,
      });
      contexts.push(c);
      return c.newPage();
    }

    /** The teacher opens the witness and starts a class; returns the room's code. */
    async function startClass(teacher: Page): Promise<string> {
      await new StepPage(teacher).open(LOST_UPDATE);
      await teacher.getByRole('button', { name: 'Start a class' }).click();
      const card = teacher.getByRole('dialog', { name: /^Join class [A-Z0-9]{6}$/ });
      await expect(card).toBeVisible();
      const code = ((await card.getAttribute('aria-label')) ?? '').slice('Join class '.length);
      await expect(card.getByRole('img', { name: `QR code to join class ${code}` })).toBeVisible();
      return code;
    }

    async function joinClass(page: Page, code: string, nickname: string, byLink: boolean) {
      await page.goto(byLink ? `/#/join/${code}` : '/#/join');
      if (!byLink) await page.getByRole('textbox', { name: 'Class code' }).fill(code);
      await page.getByRole('textbox', { name: 'Nickname' }).fill(nickname);
      await page.getByRole('button', { name: 'Join' }).click();
      await classState(page, 'Following the teacher');
    }

    /** What a student's bar says of the class ("Following the teacher", "Reconnecting…"). */
    const classState = (page: Page, text: string) =>
      expect(
        page.getByRole('region', { name: 'Class' }).getByText(text, { exact: true }),
      ).toBeVisible();
    const position = (page: Page) => new StepPage(page).timelinePosition();
    const dock = (teacher: Page) => teacher.getByRole('complementary', { name: 'Class' });

    test(tests[0] as string, async ({ browser }) => {
      const teacher = await person(browser);
      const code = await startClass(teacher);
      await teacher.screenshot({ path: test.info().outputPath('teacher-code.png') });
      await teacher.getByRole('button', { name: 'Start' }).click();

      const ada = await person(browser);
      const bo = await person(browser);
      const cy = await person(browser, true);
      await joinClass(ada, code, 'Ada', false);
      await joinClass(bo, code, 'Bo', true);
      await joinClass(cy, code, 'Cy', true);
      const students = [ada, bo, cy];
      await expect(dock(teacher).getByText('3 students present')).toBeVisible();

      // Three steps, each followed by every student's stage.
      const step = new StepPage(teacher);
      for (const at of ['1', '2', '3']) {
        await step.forward();
        await expect(position(teacher)).toHaveValue(at);
        for (const s of students) await expect(position(s)).toHaveValue(at);
      }
      // Following, the stage is the teacher's: a student's keys do not move it.
      await ada.keyboard.press('ArrowLeft');
      await expect(position(ada)).toHaveValue('3');

      // Ask the room where the schedule ends: the engine's two outcomes.
      await dock(teacher).getByRole('button', { name: 'Ask the room' }).click();
      const form = teacher.getByRole('form', { name: 'Ask the room' });
      await expect(form.getByRole('combobox', { name: 'Question' })).toHaveValue('0');
      await expect(
        form.getByRole('list', { name: 'Its choices' }).getByRole('listitem'),
      ).toHaveText(['nr=101 exact=102 (breaks no-lost-update)', 'nr=102 exact=102']);
      await form.getByRole('spinbutton', { name: 'Seconds to answer' }).fill('300');
      await form.getByRole('button', { name: 'Ask' }).click();

      const lost = 'nr=101 exact=102 (breaks no-lost-update)';
      const kept = 'nr=102 exact=102';
      for (const [s, choice] of [
        [ada, lost],
        [bo, lost],
        [cy, kept],
      ] as const) {
        const panel = s.getByRole('region', {
          name: 'Where does this schedule end? (1 more step)',
        });
        await panel.getByRole('button', { name: choice }).click();
        await expect(panel.getByText('Answer sent')).toBeVisible();
        await expect(panel.getByRole('button', { name: choice })).toHaveAttribute(
          'aria-pressed',
          'true',
        );
      }
      // The room's chart on the stage: two for the lost update, one for 102.
      const chart = dock(teacher).getByRole('img', { name: /^Where does this schedule end/ });
      await expect(chart).toHaveAttribute(
        'aria-label',
        `Where does this schedule end? (1 more step) 3 answered. ${lost}: 2; ${kept}: 1.`,
      );
      await expect(dock(teacher).getByText('3 of 3 answered')).toBeVisible();
      // Every control of the dock and of a phone's question has a role and a name.
      expect(await seriousViolations(teacher)).toEqual([]);
      await teacher.screenshot({ path: test.info().outputPath('teacher-chart.png') });

      // The reveal steps everyone to the end and keeps the chart, the right bar marked.
      await dock(teacher).getByRole('button', { name: 'Reveal' }).click();
      await expect(position(teacher)).toHaveValue('4');
      for (const s of students) await expect(position(s)).toHaveValue('4');
      await expect(chart).toHaveAttribute(
        'aria-label',
        `Where does this schedule end? (1 more step) 3 answered. ${lost}: 2 (the answer); ${kept}: 1.`,
      );
      await expect(ada.getByText(`You were right: ${lost}.`)).toBeVisible();
      expect(await seriousViolations(cy)).toEqual([]);
      await expect(cy.getByText(`Not this time: the answer is ${lost}.`)).toBeVisible();
      await teacher.screenshot({ path: test.info().outputPath('teacher-reveal.png') });
      await cy.screenshot({ path: test.info().outputPath('phone-reveal.png') });

      // Cy goes on alone: steps back twice; the class moves on without him; he comes back.
      await cy
        .getByRole('region', { name: 'The answer' })
        .getByRole('button', { name: 'Close' })
        .click();
      await cy.getByRole('button', { name: 'Go on my own' }).click();
      await classState(cy, 'On your own');
      await new StepPage(cy).back();
      await new StepPage(cy).back();
      await expect(position(cy)).toHaveValue('2');
      await step.back();
      await expect(position(teacher)).toHaveValue('3');
      await expect(position(ada)).toHaveValue('3');
      await expect(position(cy)).toHaveValue('2');
      await cy.getByRole('button', { name: 'Back to the class' }).click();
      await classState(cy, 'Following the teacher');
      await expect(position(cy)).toHaveValue('3');
      await cy.screenshot({ path: test.info().outputPath('phone-following.png') });

      // The server restarts mid-class: every page says so, then resumes where it was.
      await server.stop();
      for (const s of students) await classState(s, 'Reconnecting…');
      await expect(dock(teacher).getByText('Reconnecting…', { exact: true })).toBeVisible();
      await server.start();
      for (const s of students) await classState(s, 'Following the teacher');
      await expect(dock(teacher).getByText('3 students present')).toBeVisible();
      await step.back();
      await expect(position(teacher)).toHaveValue('2');
      for (const s of students) await expect(position(s)).toHaveValue('2');

      // A reload keeps each in the class: the teacher's browser keeps the secret, a student's
      // tab the class and its token (the same student: still three present, not four).
      await teacher.reload();
      await expect(dock(teacher).getByRole('heading', { name: `Class ${code}` })).toBeVisible();
      await ada.reload();
      await classState(ada, 'Following the teacher');
      await expect(position(ada)).toHaveValue('2');
      await expect(dock(teacher).getByText('3 students present')).toBeVisible();
      await step.forward();
      for (const s of students) await expect(position(s)).toHaveValue('3');
    });

    test(tests[1] as string, async ({ browser }) => {
      const teacher = await person(browser);
      const code = await startClass(teacher);
      await teacher.getByRole('button', { name: 'Start' }).click();
      const ada = await person(browser);
      const bo = await person(browser);
      await joinClass(ada, code, 'Ada', true);
      await joinClass(bo, code, 'Bo', true);
      await new StepPage(teacher).forward();
      for (const p of [teacher, ada, bo]) await expect(position(p)).toHaveValue('1');

      // Ada's page opens a socket of its own, says hello as a student, and tries to move the room.
      const replies = await ada.evaluate(async (code) => {
        const ws = new WebSocket(`ws://${location.host}/api/socket`);
        const got: { t: string; code?: string }[] = [];
        await new Promise<void>((resolve) => {
          ws.onopen = () => {
            resolve();
          };
        });
        const next = (t: string) =>
          new Promise<void>((resolve) => {
            ws.onmessage = (e: MessageEvent<string>) => {
              const m = JSON.parse(e.data) as { t: string; code?: string };
              got.push(m);
              if (m.t === t) resolve();
            };
          });
        const welcome = next('welcome');
        ws.send(
          JSON.stringify({
            t: 'hello',
            v: 1,
            role: 'student',
            code,
            nickname: 'Mallory',
            token: 'mallory-token-0123456789',
            since: 0,
          }),
        );
        await welcome;
        const refused = next('error');
        ws.send(JSON.stringify({ t: 'moment', hash: '#/step/global-atomic?at=0' }));
        await refused;
        ws.close();
        return got.filter((m) => m.t === 'error');
      }, code);
      expect(replies).toEqual([
        { t: 'error', code: 'not-allowed', message: 'only the teacher moves the room' },
      ]);

      // Nobody's stage moved: the teacher's and the students' still show global-plain at 1.
      for (const p of [teacher, ada, bo]) {
        await expect(new StepPage(p).heading()).toContainText('global-plain');
        await expect(position(p)).toHaveValue('1');
      }
      // The class goes on: the teacher's next step still reaches everyone.
      await new StepPage(teacher).forward();
      for (const p of [teacher, ada, bo]) await expect(position(p)).toHaveValue('2');
    });

    test(tests[2] as string, async ({ browser }) => {
      const teacher = await person(browser);
      await new StepPage(teacher).open('#/step/global-plain?challenge=lose-one&at=0');
      await teacher.getByRole('button', { name: 'Start a class' }).click();
      const card = teacher.getByRole('dialog', { name: /^Join class [A-Z0-9]{6}$/ });
      const code = ((await card.getAttribute('aria-label')) ?? '').slice('Join class '.length);
      await card.getByRole('button', { name: 'Start' }).click();
      const ada = await person(browser, true);
      await joinClass(ada, code, 'Ada', true);
      // The moment is a challenge: Ada goes on her own and loses an increment.
      const send = ada.getByRole('button', { name: 'Send my schedule to the teacher' });
      await expect(send).toBeVisible();
      await ada.getByRole('button', { name: 'Go on my own' }).click();
      const step = new StepPage(ada);
      for (const e of '0 1 0 1 0 0 1 1'.split(' ')) await step.take(e, 'button');
      await send.click();
      await expect(
        ada.getByRole('region', { name: 'Challenge' }).getByRole('status'),
      ).toContainText('✓');
      // The teacher's dock lists it: who, the schedule, the engine's verdict.
      const row = dock(teacher)
        .getByRole('table', { name: 'Challenge attempts' })
        .getByRole('row', { name: /^Ada / });
      await expect(row.getByRole('cell').nth(1)).toHaveText('0 1 0 1 0 0 1 1');
      await expect(row.getByRole('cell').nth(2)).toContainText('✓');
      // An unfinished run is judged too: not yet.
      await step.back();
      await send.click();
      await expect(
        ada.getByRole('region', { name: 'Challenge' }).getByRole('status'),
      ).toContainText('the run has not finished');
      await expect(
        dock(teacher).getByRole('table', { name: 'Challenge attempts' }).getByRole('row'),
      ).toHaveCount(3);
    });
  });
}

test('without a classroom server, "Start a class" says how to run one and the stage goes on', async ({
  page,
}) => {
  // The static app (vite preview): no /api here.
  const step = new StepPage(page);
  await step.open(LOST_UPDATE);
  await page.getByRole('button', { name: 'Start a class' }).click();
  const dock = page.getByRole('complementary', { name: 'Class' });
  await expect(dock.getByRole('alert')).toContainText('This page has no classroom server');
  await expect(dock.getByRole('alert')).toContainText('npm run classroom');
  await step.forward();
  await expect(step.timelinePosition()).toHaveValue('1');
  await dock.getByRole('button', { name: 'Close' }).click();
  await expect(dock).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start a class' })).toBeVisible();
});
