/**
 * Certificates (README.md): TLS certificate checks on any host:port (STARTTLS too), certificate
 * jobs checked on their schedule with expiry thresholds notified once per certificate, the
 * `/api/me/ssl…` routes and the admin `checkNow` action.
 */
import fp from 'fastify-plugin';
import type { AnyDb } from '../../resources/extensions.js';
import type { DomainArea } from '../area.js';
import { setSealingKey } from './deployments.js';
import { register } from './resource.js';
import { certificateRoutes } from './routes.js';
import { loadSecretKey } from './secret-box.js';
import { DEFAULT_SETTINGS, setSettings } from './settings.js';
import { certificateTasks } from './tasks.js';

const certificatesPlugin = fp(
  async (app) => {
    setSettings(app.db as unknown as AnyDb, {
      timeoutMs: app.config.sslCheckTimeoutMs ?? DEFAULT_SETTINGS.timeoutMs,
    });
    // Read (or made) at start, so a bad WANXIANG_SECRET_KEY stops the server rather than a save.
    setSealingKey(app.db as unknown as AnyDb, await loadSecretKey(app.config.secretKey, app.config.dataDir));
    await app.register(certificateRoutes);
  },
  { name: 'wanxiang-certificates', dependencies: ['wanxiang-database'] },
);

export const certificatesArea: DomainArea = {
  name: 'certificates',
  register,
  routes: certificatesPlugin,
  tasks: certificateTasks,
};
