/**
 * The server-monitor figures: host, process, database and request rates, all measured, none
 * invented. CPU usage is a rate, so it is computed between two samples: since the previous
 * call of this monitor, or since start on the first call.
 */
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import type { ServerMonitorFigures } from '@wanxiang/core';
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { Admission } from '../../http/admission.js';
import type { RequestStats } from './request-stats.js';

interface CpuSample {
  at: bigint;
  process: NodeJS.CpuUsage;
  hostBusy: number;
  hostTotal: number;
}

function hostCpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, irq, idle } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + irq + idle;
  }
  return { busy, total };
}

function sample(): CpuSample {
  const host = hostCpuTimes();
  return {
    at: process.hrtime.bigint(),
    process: process.cpuUsage(),
    hostBusy: host.busy,
    hostTotal: host.total,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export class CpuMeter {
  // Process start: cpuUsage counts from zero, and host times since boot are the baseline.
  private previous: CpuSample = {
    at: process.hrtime.bigint() - BigInt(Math.round(process.uptime() * 1e9)),
    process: { user: 0, system: 0 },
    hostBusy: 0,
    hostTotal: 0,
  };

  /** Percent of one core used by this process, and percent of all cores busy on the host. */
  read(): { processPercent: number; hostPercent: number } {
    const current = sample();
    const elapsedUs = Number(current.at - this.previous.at) / 1000;
    const processUs =
      current.process.user -
      this.previous.process.user +
      (current.process.system - this.previous.process.system);
    const hostTotal = current.hostTotal - this.previous.hostTotal;
    const hostBusy = current.hostBusy - this.previous.hostBusy;
    this.previous = current;
    return {
      processPercent: elapsedUs > 0 ? round1((processUs / elapsedUs) * 100) : 0,
      hostPercent: hostTotal > 0 ? round1((hostBusy / hostTotal) * 100) : 0,
    };
  }
}

async function databaseFigures(db: Kysely<Database>, dialect: DialectName) {
  if (dialect === 'sqlite') {
    const pageCount = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    const pageSize = await sql<{ page_size: number }>`pragma page_size`.execute(db);
    const version = await sql<{ version: string }>`select sqlite_version() as version`.execute(db);
    return {
      dialect,
      sizeBytes: Number(pageCount.rows[0]?.page_count ?? 0) * Number(pageSize.rows[0]?.page_size ?? 0),
      version: version.rows[0]?.version ?? '',
    };
  }
  const result = await sql<{ size: number | string; version: string }>`
    select pg_database_size(current_database()) as size, current_setting('server_version') as version`.execute(
    db,
  );
  return { dialect, sizeBytes: Number(result.rows[0]?.size ?? 0), version: result.rows[0]?.version ?? '' };
}

async function diskFigures(dir: string) {
  try {
    const s = await statfs(dir);
    return { path: dir, totalBytes: s.blocks * s.bsize, freeBytes: s.bavail * s.bsize };
  } catch {
    return { path: dir, totalBytes: null, freeBytes: null };
  }
}

export interface MonitorContext {
  db: Kysely<Database>;
  dialect: DialectName;
  dataDir: string;
  stats: RequestStats;
  /** The admission gate (http/admission.ts): how many are in, how many wait. */
  admission: Admission;
  cpu: CpuMeter;
  version: string;
  now: number;
}

export async function collectFigures(ctx: MonitorContext): Promise<ServerMonitorFigures> {
  const cpu = ctx.cpu.read();
  const cpus = os.cpus();
  const mem = process.memoryUsage();
  const totalMem = os.totalmem();
  const freeMem = os.freemem();
  const [database, disk] = await Promise.all([
    databaseFigures(ctx.db, ctx.dialect),
    diskFigures(ctx.dataDir),
  ]);
  const cpuTimes = process.cpuUsage();
  return {
    collectedAt: ctx.now,
    host: {
      hostname: os.hostname(),
      platform: os.platform(),
      release: os.release(),
      arch: os.arch(),
      cpu: { model: cpus[0]?.model.trim() ?? '', count: cpus.length, usagePercent: cpu.hostPercent },
      loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
      memory: {
        totalBytes: totalMem,
        freeBytes: freeMem,
        usedPercent: totalMem > 0 ? round1(((totalMem - freeMem) / totalMem) * 100) : 0,
      },
      uptimeS: Math.round(os.uptime()),
      disk,
    },
    process: {
      pid: process.pid,
      nodeVersion: process.version,
      appVersion: ctx.version,
      uptimeS: Math.round(process.uptime()),
      memory: {
        rssBytes: mem.rss,
        heapUsedBytes: mem.heapUsed,
        heapTotalBytes: mem.heapTotal,
        externalBytes: mem.external,
      },
      cpu: {
        userMs: Math.round(cpuTimes.user / 1000),
        systemMs: Math.round(cpuTimes.system / 1000),
        usagePercent: cpu.processPercent,
      },
    },
    database,
    requests: {
      total: ctx.stats.total,
      lastMinute: ctx.stats.lastMinute(ctx.now),
      byStatusClass: { ...ctx.stats.byStatusClass },
      inProgress: ctx.admission.load.active,
      waiting: ctx.admission.load.waiting,
      concurrencyLimit: ctx.admission.limit,
    },
  };
}
