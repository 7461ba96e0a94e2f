/** Food-ordering catalogue (stores, goods): the refusals the registry cannot declare (stores.ts). */
import type { DomainArea } from '../area.js';
import { register } from './resource.js';

export const omsArea: DomainArea = { name: 'oms', register };
