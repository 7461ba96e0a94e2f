/**
 * Music and movies in a real browser against the demo content (WANXIANG_DEMO=on): /music is for
 * signed-in users and plays; /movie filters change the grid and the URL; /movie/{id} shows the
 * details when signed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  browserAvailable,
  openCreateForm,
  openPage,
  type Session,
  screenshot,
  screenshotsAtBothWidths,
  startSession,
  TEST_DEMO_PASSWORD,
  useToken,
} from './harness';

/** A mono 16-bit PCM WAV of a 440 Hz tone, `seconds` long. */
function toneWav(seconds: number): Buffer {
  const rate = 8000;
  const samples = rate * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

describe.runIf(browserAvailable())('music and movies (e2e)', () => {
  let session: Session;
  let token: string;
  beforeAll(async () => {
    session = await startSession({ WANXIANG_DEMO: 'on' });
    token = await apiSignIn(session.server.url, 'editor', TEST_DEMO_PASSWORD);
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('/music sends a signed-out visitor to /scan_login', async () => {
    const { page, close } = await openPage(session);
    await page.goto('/music');
    await page.waitForURL((url) => url.pathname === '/scan_login');
    await close();
  });

  it('/music lists the published tracks and plays one', async () => {
    const { page, errors, close } = await openPage(session);
    await useToken(page, token);
    await page.goto('/music');
    await page.getByRole('heading', { name: '音乐', exact: true }).waitFor();
    const tracks = page.getByTestId('track');
    await tracks.first().waitFor();
    // Six demo tracks, one hidden.
    expect(await tracks.count()).toBe(5);
    // Newest first: 铃儿响叮当, 送别, 欢乐颂, 小星星, 茉莉花.
    const star = tracks.filter({ hasText: '小星星' });
    await star.click();
    await expect.poll(() => page.getByTestId('now-playing').textContent()).toBe('小星星（八音盒版）');
    expect(await star.getAttribute('aria-current')).toBe('true');
    const audio = page.getByTestId('audio');
    expect(await audio.getAttribute('src')).toMatch(/^\/api\/files\/[0-9a-f]{32}\.wav$/);
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.3, undefined, {
      timeout: 15_000,
    });
    expect(await page.getByRole('button', { name: '暂停' }).count()).toBe(1);
    // The LRC line being sung is highlighted.
    await page.locator('.wx-lyric-active').getByText('一闪一闪亮晶晶').waitFor();
    await page.getByRole('button', { name: '暂停' }).click();
    await page.getByRole('button', { name: '下一首' }).click();
    await expect.poll(() => page.getByTestId('now-playing').textContent()).toBe('茉莉花（八音盒版）');
    await page.getByRole('button', { name: '播放' }).click();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.3, undefined, {
      timeout: 15_000,
    });
    await page.getByRole('button', { name: '暂停' }).click();
    await screenshotsAtBothWidths(page, 'music');
    expect(errors).toEqual([]);
    await close();
  });

  it('/movie filters change the grid and the URL; a poster opens the details when signed in', async () => {
    const { page, errors, close } = await openPage(session);
    await page.goto('/movie');
    await page.getByRole('heading', { name: '电影', exact: true }).waitFor();
    const cards = page.getByTestId('movie-card');
    await cards.first().waitFor();
    // 16 demo movies, one hidden: one page of 18.
    expect(await cards.count()).toBe(15);
    await screenshotsAtBothWidths(page, 'movie');

    await page.getByRole('group', { name: '类型' }).getByRole('button', { name: '纪录片' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('genre')).toBe('documentary');
    await expect.poll(async () => (await cards.allTextContents()).join('|')).toMatch(/^[^|]*茶山十年[^|]*$/);

    await page.getByRole('group', { name: '类型' }).getByRole('button', { name: '全部' }).click();
    await page.getByRole('group', { name: '地区' }).getByRole('button', { name: '日本' }).click();
    await expect.poll(() => page.url()).toContain('region=jp');
    await expect.poll(async () => (await cards.allTextContents()).join('|')).toMatch(/^[^|]*北国之春[^|]*$/);

    await page.getByRole('group', { name: '地区' }).getByRole('button', { name: '全部' }).click();
    await page.getByRole('group', { name: '年份' }).getByRole('button', { name: '2023' }).click();
    await expect
      .poll(async () => {
        const texts = await cards.allTextContents();
        return texts.length > 0 && texts.every((t) => t.includes('2023'));
      })
      .toBe(true);
    const in2023 = await cards.count();
    expect(in2023).toBeGreaterThan(0);
    expect(in2023).toBeLessThan(15);

    await page.getByRole('group', { name: '年份' }).getByRole('button', { name: '全部' }).click();
    await page.getByLabel('搜索电影').fill('灯塔');
    await page.getByRole('button', { name: /搜索$/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('灯塔');
    await expect
      .poll(async () => (await cards.allTextContents()).join('|'))
      .toMatch(/^[^|]*雾中的灯塔[^|]*$/);
    // Reloading keeps the filters (they live in the URL).
    await page.reload();
    await cards.first().waitFor();
    expect(await cards.count()).toBe(1);
    expect(await page.getByLabel('搜索电影').inputValue()).toBe('灯塔');

    await page.getByLabel('搜索电影').fill('没有这部片子');
    await page.getByRole('button', { name: /搜索$/ }).click();
    await page.getByText('没有符合条件的电影').waitFor();

    // Signed out, a poster leads to the scan login; signed in, to the details.
    await page.goto('/movie?q=%E7%81%AF%E5%A1%94');
    await cards.first().click();
    await page.waitForURL((url) => url.pathname === '/scan_login');
    await useToken(page, token);
    await page.goto('/movie?q=%E7%81%AF%E5%A1%94');
    await cards.first().click();
    await page.waitForURL((url) => /^\/movie\/\d+$/.test(url.pathname));
    await page.getByTestId('movie-title').getByText('雾中的灯塔').waitFor();
    const body = (await page.locator('.wx-movie-detail').textContent()) ?? '';
    for (const text of [
      'Lighthouse in the Fog',
      '导演',
      '主演',
      '悬疑 / 剧情',
      '中国大陆',
      '2021',
      '7.9',
      '剧情简介',
    ])
      expect(body).toContain(text);
    await page.getByText('这部电影暂时没有可播放的片源').waitFor();
    await screenshotsAtBothWidths(page, 'movie-detail');

    await page.goto('/movie/999999');
    await page.getByText('没有找到这部电影，它可能已下架').waitFor();
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await close();
  });

  it('lets an editor upload a track’s audio on the admin screen; it plays on /music', async () => {
    const { page, errors, close } = await openPage(session, { width: 1440, height: 900 });
    await useToken(page, token);
    const form = await openCreateForm(page, '/admin/music/music');
    await form.getByLabel('歌名', { exact: true }).fill('端到端之歌');
    await form.getByLabel('歌手', { exact: true }).fill('测试乐队');

    const picker = form.getByLabel('选择要上传的音频');
    // A text file named .mp3 is refused by its bytes, and the field stays empty.
    const refused = page.waitForResponse((r) => r.url().includes('/api/admin/media/audio'));
    await picker.setInputFiles({
      name: 'fake.mp3',
      mimeType: 'audio/mpeg',
      buffer: Buffer.from('不是音频'.repeat(40)),
    });
    expect((await refused).status()).toBe(422);
    await page
      .locator('.ant-message')
      .getByText(/不支持|音频/)
      .first()
      .waitFor();
    expect(await form.getByLabel('音频文件', { exact: true }).inputValue()).toBe('');

    const uploaded = page.waitForResponse((r) => r.url().includes('/api/admin/media/audio'));
    await picker.setInputFiles({ name: '端到端.wav', mimeType: 'audio/wav', buffer: toneWav(2) });
    const answer = (await (await uploaded).json()) as { data: { url: string } };
    expect(answer.data.url).toMatch(/^\/api\/files\/[0-9a-f]{32}\.wav$/);
    await expect.poll(() => form.getByLabel('音频文件', { exact: true }).inputValue()).toBe(answer.data.url);
    await form.locator('.wx-upload-input-preview audio').waitFor();
    await screenshot(page, 'admin-audio-upload');
    await page.getByRole('button', { name: /^确\s?定$|^保\s?存$/ }).click();
    await form.waitFor({ state: 'hidden' });

    await page.goto('/music');
    const track = page.getByTestId('track').filter({ hasText: '端到端之歌' });
    await track.click();
    expect(await page.getByTestId('audio').getAttribute('src')).toBe(answer.data.url);
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.3, undefined, {
      timeout: 15_000,
    });
    expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
    await close();
  });
});
