/** Community moderation: rejecting a topic or a reply with its reason (resource.ts). */
import type { DomainArea } from '../area.js';
import { register } from './resource.js';

export const communityArea: DomainArea = { name: 'community', register };
