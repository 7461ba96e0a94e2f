/**
 * The marketing area (coupons, 满减 activities, points, referrals). For now it holds its timers
 * (timers.ts: coupons expire); its actions and routes join here.
 */
import type { DomainArea } from '../area.js';
import { marketingTasks } from './timers.js';

export { EXPIRE_COUPONS_EVERY_MS, EXPIRE_COUPONS_TASK, expireCoupons } from './timers.js';

export const marketingArea: DomainArea = { name: 'marketing', tasks: marketingTasks };
