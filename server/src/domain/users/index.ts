/** The users resource: its storage over the 0001 tables, its hooks and its actions (resource.ts). */
import type { DomainArea } from '../area.js';
import { register } from './resource.js';

export const usersArea: DomainArea = { name: 'users', register };
