/**
 * Every domain area of the server, in the order their routes are registered (area.ts). Adding an
 * area is a folder with an `index.ts` that exports its `DomainArea`, and one line here.
 *
 * The auth area is not in the list: app.ts registers it first, with `/ws`, because every other
 * area's routes use its decorators (`app.requireUser`, `app.requirePermission`).
 */
import type { FastifyInstance } from 'fastify';
import { EngineExtensions } from '../resources/extensions.js';
import type { ScheduledTask } from '../scheduler/task.js';
import { apiGatewayArea } from './api-gateway/index.js';
import { apiMarketArea } from './api-market/index.js';
import type { DomainArea } from './area.js';
import { backupArea } from './backup/index.js';
import { blogArea } from './blog/index.js';
import { cdnArea } from './cdn/index.js';
import { certificatesArea } from './certificates/index.js';
import { communityArea } from './community/index.js';
import { crmArea } from './crm/index.js';
import { dashboardArea } from './dashboard/index.js';
import { docsArea } from './docs/index.js';
import { financeArea } from './finance/index.js';
import { incomeArea } from './income/index.js';
import { marketingArea } from './marketing/index.js';
import { mediaArea } from './media/index.js';
import { merchantArea } from './merchant/index.js';
import { monitorArea } from './monitor/index.js';
import { monitorJobsArea } from './monitor-jobs/index.js';
import { omsArea } from './oms/index.js';
import { ordersArea } from './orders/index.js';
import { platformConfigArea } from './platform-config/index.js';
import { postersArea } from './posters/index.js';
import { preferencesArea } from './preferences/index.js';
import { printingArea } from './printing/index.js';
import { qrLoginArea } from './qr-login/index.js';
import { thirdServicesArea } from './third-services/index.js';
import { usersArea } from './users/index.js';

export const AREAS: readonly DomainArea[] = [
  platformConfigArea,
  monitorArea,
  preferencesArea,
  blogArea,
  mediaArea,
  merchantArea,
  docsArea,
  qrLoginArea,
  usersArea,
  communityArea,
  crmArea,
  financeArea,
  omsArea,
  ordersArea,
  marketingArea,
  printingArea,
  certificatesArea,
  incomeArea,
  dashboardArea,
  monitorJobsArea,
  apiGatewayArea,
  cdnArea,
  apiMarketArea,
  postersArea,
  thirdServicesArea,
  backupArea,
];

/** The resource engine's extensions from every area's `register` (the server's; seeders' and scripts' too). */
export function engineExtensions(areas: readonly DomainArea[] = AREAS): EngineExtensions {
  const engine = new EngineExtensions();
  for (const area of areas) area.register?.(engine);
  return engine;
}

/** Every area's scheduled tasks (`DomainArea.tasks`), for the server's scheduler. */
export function areaTasks(app: FastifyInstance, areas: readonly DomainArea[] = AREAS): ScheduledTask[] {
  return areas.flatMap((area) => area.tasks?.(app) ?? []);
}
