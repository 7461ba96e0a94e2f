/** Third-party services (README.md): 测试 reaches the endpoint under the outbound policy; the secret never leaves. */
import type { DomainArea } from '../area.js';
import { register } from './resource.js';

export const thirdServicesArea: DomainArea = { name: 'third-services', register };
