// Scripts in other languages in the editor: a block, before the render, when the voice cannot
// read the script's writing at all (naming the voices that can), caption lines split as the video splits them (Chinese without spaces,
// Arabic right to left), and the preview canvas drawing them with the bundled fonts.
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openApp, screenshot } from './support/app.js';

test('a Chinese or Arabic script with an English voice cannot be rendered: the editor says so and names the voices that speak it', async ({ page }) => {
  await openApp(page);
  const script = page.getByLabel('Narration script');
  await script.fill('Welcome to the quarterly update. Here is what changed this month.');
  await expect(page.getByTestId('language-error')).toHaveCount(0);

  await script.fill('今天天气很好，我们去公园散步吧。欢迎收看本期节目。');
  await expect(page.getByTestId('language-error')).toContainText(/cannot be rendered: the script is written in Chinese, .* cannot read; choose a voice that speaks Chinese: Xiaoxiao, Yunxi/);
  // Written without spaces, still split into caption words, and joined back without spaces.
  await expect(page.getByTestId('caption-pages').locator('.caption-line').first()).toHaveText('今天天气很好，我们去公园散步吧。');

  const arabic = 'مرحبا بكم في الاستوديو 🎉 هذا هو التحديث الفصلي للشركة.';
  await script.fill(arabic);
  await expect(page.getByTestId('language-error')).toContainText(/written in Arabic.*choose a voice that speaks Arabic: Hamed, Zariyah/);
  // The bundled script fonts are loaded in the page (not the machine's own fonts).
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, ''));
  });
  expect(loaded).toEqual(expect.arrayContaining(['PS Arabic', 'PS Hebrew', 'PS CJK', 'PS Emoji', 'DejaVu Sans']));
  await screenshot(page, 'arabic-script-preview');
  mkdirSync('docs/img', { recursive: true });
  await page.locator('section.panel.script').screenshot({ path: 'docs/img/script-unreadable-language.png' });

  // Sent anyway, the server refuses it the same way; the text stays as typed.
  await script.press('Control+Enter');
  await expect(page.getByText(/written in Arabic, which the voice .* cannot read/).nth(1)).toBeVisible();
  await expect(script).toHaveValue(arabic);

  // With an Arabic voice it renders.
  await page.getByLabel('Language').selectOption('ar-SA');
  await page.getByRole('radio', { name: /^Hamed/ }).check();
  await expect(page.getByTestId('language-error')).toHaveCount(0);
  await script.press('Control+Enter');
  await expect(page.getByTestId('last-job-status')).toBeVisible();
});

test('the script\'s own text shows every script with the bundled fonts, also where the system has none', async ({ page }) => {
  // This machine has no CJK, Arabic or emoji fonts of its own: without the bundled ones the
  // caption list showed the script as boxes while the video showed it right.
  await openApp(page);
  await page.getByLabel('Narration script').fill('你好世界。🎉 مرحبا بكم. שלום לכולם. Привет!');
  await expect(page.getByTestId('caption-pages')).toContainText('Привет!');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const used: { familyName: string; isCustomFont: boolean }[] = [];
  await expect(async () => {
    used.length = 0;
    // Asked anew on every try: the list may have been drawn again meanwhile.
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '[data-testid="caption-pages"] .caption-line' });
    expect(nodeIds.length).toBeGreaterThan(0);
    for (const nodeId of nodeIds) used.push(...(await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts);
    // Every glyph drawn by a font the app ships (the page's own fonts), none by the system's fallback.
    expect(used.filter((f) => !f.isCustomFont)).toEqual([]);
    // (Arabic and Hebrew come from the bundled DejaVu Sans, which has them; CJK and emoji from
    // theirs. Checked on each try: a font still loading draws nothing, and is listed by none.)
    expect(used.map((f) => f.familyName)).toEqual(expect.arrayContaining(['Noto Sans CJK SC', 'Noto Color Emoji', 'DejaVu Sans']));
  }).toPass();
});

test('a script pasted with Markdown marks keeps them in the editor and lists its captions without them', async ({ page }) => {
  await openApp(page);
  const script = page.getByLabel('Narration script');
  const pasted = '## Intro\n**Step 1:** Open the *app*.';
  await script.fill(pasted);
  // The video speaks and shows the words, not "asterisk" or "hash", the heading on a screen of
  // its own; the draft keeps what was typed.
  await expect(page.getByTestId('caption-pages').locator('.caption-line')).toHaveText(['Intro', 'Step 1: Open the app.']);
  await expect(script).toHaveValue(pasted);
});

test('a Japanese script in kanji with a Japanese voice needs no warning: kanji are read as words', async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Language').selectOption('ja-JP');
  await page.getByRole('radio', { name: /^Nanami/ }).check();
  const script = page.getByLabel('Narration script');
  await script.fill('こんにちは。今日は新しいスタジオを紹介します。');
  await expect(page.getByTestId('caption-pages')).toContainText('今日は新しいスタジオを紹介します。');
  await expect(page.getByTestId('language-warning')).toHaveCount(0);
  await expect(page.getByTestId('language-error')).toHaveCount(0);
});
