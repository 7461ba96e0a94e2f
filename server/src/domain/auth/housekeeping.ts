/**
 * Deletes rows that can no longer matter (used-up captchas, attempts outside the sign-in
 * window, long-ended sessions) so these tables stay small. Runs off the request path.
 */
import fp from 'fastify-plugin';
import { deleteExpiredCaptchas } from './captcha.js';
import { deleteEndedSessions } from './sessions.js';
import { deleteOldSignInAttempts } from './signin-limits.js';

const EVERY_MS = 10 * 60_000;

export const authHousekeepingPlugin = fp(
  async (app) => {
    const run = async () => {
      const now = app.config.now();
      try {
        await deleteExpiredCaptchas(app.db, now);
        await deleteOldSignInAttempts(app.db, now);
        await deleteEndedSessions(app.db, now);
      } catch (err) {
        app.log.warn({ err }, 'auth housekeeping failed');
      }
    };
    const timer = setInterval(run, EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'wanxiang-auth-housekeeping', dependencies: ['wanxiang-database'] },
);
