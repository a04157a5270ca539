// The Plan usage dialog (Ctrl+Shift+S) in Chromium against the real server, whose probe runs the fake `claude`
// (test/fixtures/fake-claude) through AGENT_BIN: a Max plan, an API-key login, a CLI that fails (503), a missing CLI.
// Needs `npm run build`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAppServer } from '../helpers/app-server.ts';
import { FAKE_CLAUDE } from '../helpers/paths.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const test = suite('shell usage dialog');

test('a probe that answers: windows with meters, reset times, binding window, spend; refresh sends refresh=1', async () => {
  const server = await startAppServer({ env: { AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'success' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.page();
    const usage: string[] = [];
    page.on('request', (r) => r.url().includes('/api/usage-limits') && usage.push(new URL(r.url()).search));
    await page.goto(`${server.url}/?view=overview&range=365`);
    await page.locator('cost-top-bar').waitFor();
    await page.keyboard.press('Control+Shift+S');
    const dialog = page.locator('cost-usage-dialog dialog');
    await dialog.waitFor({ state: 'visible' });
    await page.locator('.usage-window').first().waitFor({ timeout: 15_000 });
    const windows = await page.locator('.usage-window').evaluateAll((els) =>
      els.map((el) => ({
        label: el.querySelector('.usage-label')?.textContent?.trim(),
        pct: el.querySelector('[role="meter"]')?.getAttribute('aria-valuenow'),
        binding: el.classList.contains('binding'),
        reset: el.querySelector('.usage-reset')?.textContent?.trim() ?? '',
      })),
    );
    assert.equal(windows.map((w) => w.label), ['Session (5h)', 'Week (all models)', 'Week (Opus)', 'Week (Fable)']);
    assert.equal(windows.map((w) => w.pct), ['42', '75', '93', '62']);
    assert.equal(windows.filter((w) => w.binding).length, 1, 'exactly one binding window');
    assert.match(windows[0]!.reset, /^Resets in /);
    assert.is(windows[2]!.reset, 'No reset time reported');
    assert.match(await page.locator('.usage-spend').innerText(), /€12\.34[\s\S]*of €50\.00/);
    assert.is(await page.locator('.usage-spend [role="meter"]').getAttribute('aria-valuenow'), '25');
    assert.is(await page.locator('.usage-note').count(), 0);
    assert.match(await page.locator('.usage-plan').innerText(), /max/i);
    await browser.screenshot(page, 'shell-usage-ok');

    await page.locator('[data-action="refresh-usage"]').click();
    await waitFor(() => usage.some((q) => q.includes('refresh=1')), 'a refresh=1 request');
    await page.locator('[data-action="refresh-usage"]:not([disabled])').waitFor({ timeout: 15_000 });
    assert.is(await page.locator('.usage-window').count(), 4);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.is(new URL(page.url()).searchParams.get('view'), 'overview', 'Escape closed the dialog only');
    // The top-bar button opens it too.
    await page.locator('cost-top-bar [data-action="usage"]').click();
    await dialog.waitFor({ state: 'visible' });
    assert.equal(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a login that plan limits do not apply to: the note says so instead of an empty list; no error, no toast', async () => {
  const server = await startAppServer({ env: { AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'api-key' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.page();
    await page.goto(`${server.url}/?view=overview&range=365`);
    await page.locator('cost-top-bar').waitFor();
    await page.keyboard.press('Control+Shift+S');
    const note = page.locator('cost-usage-dialog .usage-na');
    await note.waitFor({ timeout: 15_000 });
    assert.match(await note.innerText(), /Plan limits do not apply to this login.*API key or a cloud provider/);
    assert.is(await page.locator('cost-usage-dialog .usage-window').count(), 0);
    assert.is(await page.locator('cost-usage-dialog .usage-error').count(), 0);
    assert.is(await page.locator('cost-usage-dialog .usage-plan').count(), 0, 'no plan to name');
    assert.is(await page.locator('cost-toast .toast').count(), 0);
    await browser.screenshot(page, 'shell-usage-not-applicable');
    assert.equal(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a probe that fails: the 503 message is shown plainly, no toast, data untouched', async () => {
  const server = await startAppServer({ env: { AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_MODE: 'error' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.page();
    await page.goto(`${server.url}/?view=overview&range=365`);
    await page.locator('cost-overview-view').waitFor();
    await page.keyboard.press('Control+Shift+S');
    const error = page.locator('cost-usage-dialog .usage-error');
    await error.waitFor({ timeout: 15_000 });
    assert.match(await error.innerText(), 'Usage is only available for subscription plans');
    assert.is(await page.locator('cost-toast .toast').count(), 0);
    await browser.screenshot(page, 'shell-usage-error');
    // The one expected problem: Chromium logs the 503 response as a console error.
    assert.ok(browser.problems.length > 0 && browser.problems.every((p) => /503|Service Unavailable/.test(p)), browser.problems.join('\n'));
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a missing CLI: the error names it', async () => {
  const server = await startAppServer({ env: { AGENT_BIN: '/nonexistent/claude-cli' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.page();
    await page.goto(`${server.url}/?view=overview&range=365`);
    await page.locator('cost-top-bar').waitFor();
    await page.keyboard.press('Control+Shift+S');
    const error = page.locator('cost-usage-dialog .usage-error');
    await error.waitFor({ timeout: 15_000 });
    assert.match(await error.innerText(), '/nonexistent/claude-cli');
  } finally {
    await browser.close();
    await server.close();
  }
});

test.run();
