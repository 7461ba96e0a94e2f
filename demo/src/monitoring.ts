/**
 * Monitoring (core definitions/monitoring.ts): uptime jobs of each kind over hosts under the
 * reserved example domains, with a day of heartbeats (incidents flip jobs down and back up, the
 * flips marked important); certificate jobs with plausible certificate fields in every state;
 * certificate deployments carrying real certificates (x509.ts) and no private key.
 */
import { createHash } from 'node:crypto';
import { certificateVerdict, sslJobStatusOf } from '@wanxiang/core';
import { DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import { screenshotImage } from './images.js';
import type { Customer } from './people.js';
import type { Rng } from './random.js';
import { issueCertificate } from './x509.js';

interface JobSpec {
  name: string;
  kind: 'http' | 'keyword' | 'browser';
  url: string;
  method?: string;
  intervalS: number;
  maxRetries: number;
  keyword?: string;
  /** Base latency (ms). */
  latency: number;
  /** Outages in the last day: [start hours ago, length minutes]. */
  outages: readonly (readonly [number, number])[];
  /** Down now (an outage that has not ended). */
  downNow?: boolean;
  paused?: boolean;
  owner?: boolean;
  headers?: Record<string, string>;
}

const JOBS: readonly JobSpec[] = [
  {
    name: '官网首页',
    kind: 'http',
    url: 'https://www.example.com/',
    intervalS: 60,
    maxRetries: 1,
    latency: 120,
    outages: [[15, 6]],
  },
  {
    name: '点餐小程序接口',
    kind: 'http',
    url: 'https://api.example.com/health',
    intervalS: 60,
    maxRetries: 2,
    latency: 45,
    outages: [],
    headers: { 'X-Probe': 'wanxiang-monitor' },
  },
  {
    name: '支付回调健康检查',
    kind: 'keyword',
    url: 'https://pay.example.com/notify/health',
    intervalS: 120,
    maxRetries: 2,
    keyword: '"status":"ok"',
    latency: 80,
    outages: [[6, 10]],
  },
  {
    name: '后台管理登录页',
    kind: 'browser',
    url: 'https://admin.example.com/admin/login',
    intervalS: 300,
    maxRetries: 0,
    latency: 1800,
    outages: [],
  },
  {
    name: '文档搜索',
    kind: 'keyword',
    url: 'https://docs.example.com/doc/search?q=contract',
    intervalS: 300,
    maxRetries: 1,
    keyword: '合同',
    latency: 260,
    outages: [],
  },
  {
    name: 'CDN 静态资源',
    kind: 'http',
    url: 'https://static.example.com/assets/app.js',
    method: 'HEAD',
    intervalS: 60,
    maxRetries: 0,
    latency: 30,
    outages: [
      [20, 12],
      [0.4, 30],
    ],
    downNow: true,
  },
  {
    name: '短信网关',
    kind: 'http',
    url: 'https://sms.example.com/status',
    intervalS: 120,
    maxRetries: 3,
    latency: 210,
    outages: [[9, 4]],
  },
  {
    name: '旧版官网',
    kind: 'http',
    url: 'http://old.example.com/',
    intervalS: 600,
    maxRetries: 0,
    latency: 400,
    outages: [],
    paused: true,
  },
  {
    name: '我的博客',
    kind: 'http',
    url: 'https://blog.example.org/',
    intervalS: 300,
    maxRetries: 1,
    latency: 350,
    outages: [[11, 25]],
    owner: true,
  },
  {
    name: '个人网盘',
    kind: 'keyword',
    url: 'https://pan.example.net/login',
    intervalS: 600,
    maxRetries: 0,
    keyword: '登录',
    latency: 520,
    outages: [[3, 40]],
    owner: true,
  },
];

const FAILURES = [
  'connect ETIMEDOUT',
  'HTTP 503 Service Unavailable',
  'HTTP 502 Bad Gateway',
  'getaddrinfo ENOTFOUND',
  'socket hang up',
];

export function seedMonitoring(
  ctx: DemoContext,
  customers: readonly Customer[],
  cdnDomains: readonly Row[],
): void {
  const rng = ctx.random('monitoring');
  const runs: { at: number; row: Record<string, unknown> }[] = [];
  const jobs = new Map<number, Row>();
  for (const spec of JOBS) {
    const owner = spec.owner ? rng.pick(customers).row.id : null;
    const created = ctx.now - rng.int(20, 200) * DAY;
    const job = ctx.add('monitorJobs', {
      name: spec.name,
      ownerId: owner,
      kind: spec.kind,
      url: spec.url,
      method: spec.method ?? 'GET',
      headers: spec.headers ?? null,
      body: null,
      intervalS: spec.intervalS,
      retryIntervalS: Math.max(20, Math.min(spec.intervalS, 60)),
      timeoutMs: spec.kind === 'browser' ? 30_000 : 10_000,
      acceptedStatus: '200-299',
      keyword: spec.keyword ?? null,
      invertKeyword: false,
      maxRetries: spec.maxRetries,
      status: 'pending',
      lastCheckAt: null as number | null,
      lastLatencyMs: null as number | null,
      screenshot: null as string | null,
      retryCount: 0,
      createdAt: created,
      updatedAt: created,
    });
    jobs.set(job.id as number, job);
    if (spec.kind === 'browser') {
      ctx.later(async () => {
        job.screenshot = await ctx.file(
          await screenshotImage(rng.fork(spec.name), '万象 · 管理后台', spec.url),
          'jpg',
        );
      });
    }
    if (spec.paused) {
      job.status = 'paused';
      job.updatedAt = ctx.now - 3 * DAY;
      job.lastCheckAt = ctx.now - 3 * DAY - 5 * MINUTE;
      job.lastLatencyMs = spec.latency;
      continue;
    }
    heartbeat(ctx, rng.fork(spec.name), spec, job, runs);
  }
  runs.sort((a, b) => a.at - b.at);
  for (const { at, row } of runs) {
    ctx.add('monitorRuns', { ...row, at, createdAt: at, updatedAt: at });
    // Each flip raised an alert, as the runner does.
    if (!row.important) continue;
    const job = jobs.get(row.jobId as number) as Row;
    const down = row.status === 'down';
    ctx.add('monitorAlerts', {
      level: down ? 'down' : 'up',
      jobId: job.id,
      ownerId: job.ownerId ?? null,
      message: down ? `「${job.name}」故障：${row.message}` : `「${job.name}」已恢复正常`,
      at,
      createdAt: at,
      updatedAt: at,
    });
  }

  seedSslJobs(ctx, customers);
  seedSslDeployments(ctx, cdnDomains);
}

/** A day of checks: up, or failing through pending (while retries remain) to down, and back. */
function heartbeat(
  ctx: DemoContext,
  rng: Rng,
  spec: JobSpec,
  job: Row,
  runs: { at: number; row: Record<string, unknown> }[],
): void {
  const start = ctx.now - DAY;
  const inOutage = (t: number) =>
    spec.outages.some(([hoursAgo, minutes]) => {
      const from = ctx.now - hoursAgo * HOUR;
      return t >= from && (t < from + minutes * MINUTE || (spec.downNow && hoursAgo < 1));
    });
  // The last settled state: a check that settles on the other one is a flip (an alert).
  let settled: 'up' | 'down' = 'up';
  let failures = 0;
  let t = start + rng.int(0, spec.intervalS) * 1000;
  let last: Record<string, unknown> | null = null;
  while (t <= ctx.now) {
    const failing = inOutage(t);
    let status: 'up' | 'down' | 'pending';
    if (!failing) {
      failures = 0;
      status = 'up';
    } else {
      failures++;
      status = failures > spec.maxRetries ? 'down' : 'pending';
    }
    const important = status !== 'pending' && status !== settled;
    if (status !== 'pending') settled = status;
    const latency = failing
      ? spec.kind === 'browser'
        ? 30_000
        : rng.int(3000, 10_000)
      : Math.round(rng.around(spec.latency, spec.latency * 0.3, 5, spec.latency * 4));
    const message = failing
      ? rng.pick(FAILURES)
      : spec.kind === 'keyword'
        ? `找到关键词「${spec.keyword}」`
        : spec.kind === 'browser'
          ? '页面加载完成（networkidle）'
          : 'OK';
    const row = {
      jobId: job.id,
      status,
      httpStatus: failing ? (message.startsWith('HTTP') ? Number(message.slice(5, 8)) : null) : 200,
      latencyMs: latency,
      message,
      important,
    };
    runs.push({ at: t, row });
    last = { ...row, at: t };
    // While failing, retries come at the retry interval.
    t += (failing && status === 'pending' ? (job.retryIntervalS as number) : spec.intervalS) * 1000;
  }
  if (last) {
    job.status = last.status;
    // A job failing within its retries has used that many (the runner's retryCount).
    job.retryCount = last.status === 'pending' ? failures : 0;
    job.lastCheckAt = last.at;
    job.lastLatencyMs = last.latencyMs;
    job.updatedAt = last.at;
  }
}

function fingerprint(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex').toUpperCase();
  return hex.match(/../g)?.join(':') ?? hex;
}

const CAS = [
  {
    leaf: "CN=R11, O=Let's Encrypt, C=US",
    root: 'CN=ISRG Root X1, O=Internet Security Research Group, C=US',
    days: 90,
  },
  {
    leaf: 'CN=TrustAsia RSA DV TLS CA G2, O=TrustAsia Technologies, Inc., C=CN',
    root: 'CN=DigiCert Global Root CA, OU=www.digicert.com, O=DigiCert Inc, C=US',
    days: 365,
  },
  {
    leaf: 'CN=GlobalSign GCC R3 DV TLS CA 2020, O=GlobalSign nv-sa, C=BE',
    root: 'CN=GlobalSign, O=GlobalSign, OU=GlobalSign Root CA - R3',
    days: 365,
  },
];

function seedSslJobs(ctx: DemoContext, customers: readonly Customer[]): void {
  const rng = ctx.random('ssl');
  // [host, days left (null: the check failed), owner?]
  const hosts: readonly (readonly [string, number | null, boolean])[] = [
    ['www.example.com', 64, false],
    ['api.example.com', 71, false],
    ['pay.example.com', 180, false],
    ['static.example.com', 12, false],
    ['admin.example.com', 5, false],
    ['old.example.com', -9, false],
    ['blog.example.org', 40, true],
    ['mail.example.net', null, true],
  ];
  hosts.forEach(([host, daysLeft, owned], i) => {
    const ca = CAS[i % CAS.length] as (typeof CAS)[number];
    const created = ctx.now - rng.int(30, 300) * DAY;
    const lastCheckAt = ctx.now - rng.int(5, 300) * MINUTE;
    const notifyDays = owned ? [30] : [7, 14, 21];
    const base = {
      host,
      port: 443,
      ownerId: owned ? rng.pick(customers).row.id : null,
      notifyDays,
      lastCheckAt,
      createdAt: created,
      updatedAt: lastCheckAt,
    };
    if (daysLeft === null) {
      const job = ctx.add('sslJobs', {
        ...base,
        issuer: null,
        subject: null,
        sans: null,
        fingerprint256: null,
        notBefore: null,
        notAfter: null,
        daysLeft: null,
        chain: null,
        status: 'error',
        verdict: 'unreachable',
        lastError: 'connect ECONNREFUSED：443 端口无法连接',
      });
      ctx.add('monitorAlerts', {
        level: 'error',
        sslJobId: job.id,
        ownerId: base.ownerId,
        message: `${host} 的证书检测失败：443 端口无法连接`,
        at: lastCheckAt,
        createdAt: lastCheckAt,
        updatedAt: lastCheckAt,
      });
      return;
    }
    const notAfter = ctx.now + daysLeft * DAY + rng.int(0, 23) * HOUR;
    const notBefore = notAfter - ca.days * DAY;
    // The verdict as the checker gives it (core's rule), as of the last check.
    const checked = certificateVerdict({ now: lastCheckAt, notBefore, notAfter, notifyDays, host });
    const status = sslJobStatusOf(checked.verdict);
    const leafPrint = fingerprint(`${host}/${notAfter}`);
    const iso = (ms: number) => new Date(ms).toISOString();
    const job = ctx.add('sslJobs', {
      ...base,
      issuer: ca.leaf,
      subject: `CN=${host}`,
      sans: host.startsWith('www.') ? [host, host.slice(4)] : [host],
      fingerprint256: leafPrint,
      notBefore,
      notAfter,
      daysLeft: checked.daysLeft,
      chain: [
        {
          subject: `CN=${host}`,
          issuer: ca.leaf,
          notBefore: iso(notBefore),
          notAfter: iso(notAfter),
          fingerprint256: leafPrint,
        },
        {
          subject: ca.leaf,
          issuer: ca.root,
          notBefore: iso(ctx.now - 800 * DAY),
          notAfter: iso(ctx.now + 600 * DAY),
          fingerprint256: fingerprint(ca.leaf),
        },
      ],
      status,
      verdict: checked.verdict,
      keyType: i % 2 === 0 ? 'ECDSA P-256' : 'RSA 2048',
      lastError: null,
    });
    if (status === 'expiring' || status === 'expired') {
      ctx.add('monitorAlerts', {
        level: status,
        sslJobId: job.id,
        ownerId: base.ownerId,
        message: `${host}：${checked.reason}`,
        at: lastCheckAt,
        createdAt: lastCheckAt,
        updatedAt: lastCheckAt,
      });
    }
  });
}

function seedSslDeployments(ctx: DemoContext, cdnDomains: readonly Row[]): void {
  const ca = issueCertificate({
    subject: { C: 'CN', O: '万象演示', CN: '万象演示 CA（仅供演示）' },
    notBefore: ctx.now - 400 * DAY,
    notAfter: ctx.now + 3000 * DAY,
    ca: true,
  });
  const specs = [
    ['静态资源证书', 0, 'deployed', '已部署到 CDN 节点（演示）'],
    ['图片域名证书', 1, 'deployed', '已部署到 CDN 节点（演示）'],
    ['下载站证书', 2, 'failed', '部署失败：证书与域名不匹配（演示）'],
    ['新活动页证书', 3, 'pending', null],
  ] as const;
  specs.forEach(([name, index, status, message], i) => {
    const cdn = cdnDomains[index % cdnDomains.length] as Row;
    const domain = cdn.domain as string;
    const notBefore = ctx.now - (40 + i * 10) * DAY;
    const leaf = issueCertificate({
      subject: { CN: domain.replace(/^\*\./, 'wildcard.') },
      issuer: ca,
      notBefore,
      notAfter: notBefore + 365 * DAY,
      sans: [domain],
    });
    const at = notBefore + DAY;
    const deployedAt = status === 'deployed' ? at + HOUR : null;
    const row = ctx.add('sslDeployments', {
      name,
      certificate: leaf.pem + ca.pem,
      // No key material in the demo database: the column is NOT NULL (the field is required), so
      // an empty string stands for "no key on file"; the generated keys were thrown away.
      privateKey: '',
      domains: [domain],
      cdnDomainId: cdn.id,
      status,
      message,
      deployedAt,
      createdAt: at,
      updatedAt: deployedAt ?? at + 2 * HOUR,
    });
    if (status === 'deployed') cdn.httpsCertId = row.id;
  });
}
