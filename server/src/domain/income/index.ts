/**
 * The income area (DOMAIN.md "OMS/income", README.md here): the 收入统计 figures and their CSV.
 * It reads orders and refunds and writes nothing.
 */
import type { DomainArea } from '../area.js';
import { incomeRoutes } from './routes.js';

export const incomeArea: DomainArea = { name: 'income', routes: incomeRoutes };
