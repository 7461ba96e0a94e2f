/**
 * The browser kind: the page loaded in headless Chromium (playwright-core, the system's
 * Chromium at /usr/bin/chromium or CHROMIUM_PATH), waiting for network idle, status from the
 * main response, a screenshot kept in the blob store.
 *
 * - One browser for the whole process, launched on first use and closed with the app
 *   (`close()`); a new context and page per check, so checks share no cookies.
 * - At most `maxPages` checks at once (a semaphore): each page costs tens of MB.
 * - Every request the page makes (subresources, redirects, XHR) goes through `page.route` and
 *   is aborted when its host is refused by the job's outbound policy, so a page cannot make the
 *   server's browser fetch a loopback or metadata address. Chromium resolves names itself, so
 *   unlike http-outbound the connection is not pinned to the checked address; the checked name
 *   is resolved again by Chromium moments later (a DNS-rebinding window that http jobs do not
 *   have). WebSockets are not routed by Playwright: --disable-background-networking and the
 *   policy on the page's own URL are what stand there.
 */
import { existsSync } from 'node:fs';
import { statusAccepted } from '@wanxiang/core';
import type { Browser } from 'playwright-core';
import type { OutboundResolver } from '../../net/http-outbound.js';
import { OutboundRefusedError, OutboundUnresolvedError, resolveOutbound } from '../../net/outbound.js';
import type { CheckEnv, CheckResult, JobSpec } from './checks.js';

export const CHROMIUM_MISSING = '未找到 Chromium（/usr/bin/chromium 或 CHROMIUM_PATH），无法运行浏览器任务';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium to use, or null when there is none. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = [env.CHROMIUM_PATH, '/usr/bin/chromium'].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** Stores a screenshot, answers its URL. */
export type ScreenshotStore = (jpeg: Buffer) => Promise<string>;

export class BrowserChecker {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly options: {
      executablePath: string | null;
      maxPages: number;
      storeScreenshot: ScreenshotStore;
    },
  ) {}

  async check(job: JobSpec, env: CheckEnv): Promise<CheckResult> {
    if (!this.options.executablePath || !existsSync(this.options.executablePath))
      return { ok: false, httpStatus: null, latencyMs: null, message: CHROMIUM_MISSING };
    await this.acquire();
    try {
      return await this.load(job, env);
    } finally {
      this.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close().catch(() => undefined);
  }

  private launch(): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('browser checker closed'));
    if (!this.browser) {
      // playwright-core is loaded on the first browser check, not at start: its two bundles hold
      // ~14 MB of source text and more of compiled code in every server's heap, and most servers
      // never run a browser check.
      this.browser = import('playwright-core').then(({ chromium }) =>
        chromium.launch({ executablePath: this.options.executablePath as string, args: ARGS }),
      );
      // A crashed or failed launch is retried at the next check.
      this.browser.then(
        (b) => b.on('disconnected', () => (this.browser = null)),
        () => (this.browser = null),
      );
    }
    return this.browser;
  }

  private async load(job: JobSpec, env: CheckEnv): Promise<CheckResult> {
    const now = env.now ?? Date.now;
    let browser: Browser;
    try {
      browser = await this.launch();
    } catch (error) {
      return {
        ok: false,
        httpStatus: null,
        latencyMs: null,
        message: `无法启动 Chromium（${(error as Error).message.split('\n')[0]}）`,
      };
    }
    const context = await browser.newContext({
      ignoreHTTPSErrors: !!job.ignoreTls,
      viewport: { width: 1280, height: 800 },
    });
    const resolve: OutboundResolver = env.resolve ?? resolveOutbound;
    let refusal: string | null = null;
    try {
      const page = await context.newPage();
      await page.route('**/*', async (route) => {
        const url = new URL(route.request().url());
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return route.continue();
        try {
          await resolve(url.hostname.replace(/^\[|\]$/g, ''), env.policy, { timeoutMs: job.timeoutMs });
          await route.continue();
        } catch (error) {
          if (error instanceof OutboundRefusedError || error instanceof OutboundUnresolvedError)
            refusal ??= error.message;
          await route.abort('blockedbyclient').catch(() => undefined);
        }
      });
      const abort = () => void context.close().catch(() => undefined);
      env.signal?.addEventListener('abort', abort, { once: true });
      const started = now();
      try {
        const response = await page.goto(job.url, { waitUntil: 'networkidle', timeout: job.timeoutMs });
        const latencyMs = Math.max(0, Math.round(now() - started));
        const shot = await page.screenshot({ type: 'jpeg', quality: 70 });
        const screenshot = await this.options.storeScreenshot(shot);
        const status = response?.status() ?? 0;
        const spec = job.acceptedStatus || '200-299';
        if (!statusAccepted(status, spec))
          return {
            ok: false,
            httpStatus: status,
            latencyMs,
            message: `状态码 ${status} 不在 ${spec} 内`,
            screenshot,
          };
        return {
          ok: true,
          httpStatus: status,
          latencyMs,
          message: `页面已加载（状态码 ${status}）`,
          screenshot,
        };
      } catch (error) {
        const text = (error as Error).message ?? '';
        const message = refusal
          ? refusal
          : /Timeout/i.test(text)
            ? `超时（${job.timeoutMs} 毫秒）`
            : /ERR_CONNECTION_REFUSED/.test(text)
              ? '连接被拒绝'
              : `页面加载失败（${text.split('\n')[0]}）`;
        return { ok: false, httpStatus: null, latencyMs: null, message };
      } finally {
        env.signal?.removeEventListener('abort', abort);
      }
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.options.maxPages) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes to the next waiter
    else this.active -= 1;
  }
}
