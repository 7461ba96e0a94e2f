/** Supply chain: booking a purchase into stock (resource.ts). */
import type { DomainArea } from '../area.js';
import { register } from './resource.js';

export const crmArea: DomainArea = { name: 'crm', register };
