/**
 * The server's start (main.ts loads it): reads the environment, builds the app (migrating and
 * seeding the database), listens, and shuts down cleanly on SIGINT/SIGTERM.
 */

import type { DemoContentReport } from '@wanxiang/demo';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type ServerConfig } from './config.js';
import type { InitialUsersReport } from './domain/auth/index.js';
import { serving } from './v8-heap.js';

function box(lines: string[]): string {
  const width = Math.max(
    ...lines.map((l) => [...l].length + (l.match(/[\u3000-\u9fff\uff00-\uffef]/g)?.length ?? 0)),
  );
  const pad = (l: string) =>
    l + ' '.repeat(width - [...l].length - (l.match(/[\u3000-\u9fff\uff00-\uffef]/g)?.length ?? 0));
  return [
    `╔${'═'.repeat(width + 2)}╗`,
    ...lines.map((l) => `║ ${pad(l)} ║`),
    `╚${'═'.repeat(width + 2)}╝`,
  ].join('\n');
}

function announceStartup(
  config: ServerConfig,
  startup: InitialUsersReport,
  demo: DemoContentReport | null,
): void {
  // Every generated password in one box, printed once: the admin's and the demo accounts'.
  const generated = [
    ...(startup.generatedAdminPassword
      ? [{ username: 'admin', password: startup.generatedAdminPassword }]
      : []),
    ...startup.generatedDemoPasswords,
  ];
  if (generated.length > 0) {
    const width = Math.max(...generated.map((g) => g.username.length));
    process.stdout.write(
      `\n${box([
        '万象 first start: these accounts were created with generated passwords.',
        '',
        ...generated.map((g) => `  ${g.username.padEnd(width)}  ${g.password}`),
        '',
        'These passwords are shown ONCE and never stored in clear. Write them down now,',
        'or set WANXIANG_ADMIN_PASSWORD (and WANXIANG_DEMO_PASSWORD for the demo',
        'accounts) before the first start next time.',
      ])}\n\n`,
    );
  }
  if (startup.adminCreated && !startup.generatedAdminPassword) {
    process.stdout.write('万象: created the administrator account "admin" with WANXIANG_ADMIN_PASSWORD.\n');
  }
  if (startup.demoUsersCreated.length > 0) {
    const passwords =
      startup.generatedDemoPasswords.length > 0 ? 'passwords above' : 'password WANXIANG_DEMO_PASSWORD';
    process.stdout.write(
      `万象: created demo accounts ${startup.demoUsersCreated.join(', ')} (${passwords}; WANXIANG_DEMO=off to skip).\n`,
    );
  }
  if (demo) {
    const rows = Object.values(demo.counts).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `万象: wrote demo content — ${rows} rows in ${Object.keys(demo.counts).length} resource tables and ${demo.files} files in ${(demo.ms / 1000).toFixed(1)} s (WANXIANG_DEMO=off to skip).\n`,
    );
  }
  if (config.captchaTestCode) {
    process.stderr.write(
      `\n${box([
        '!!! WARNING: WANXIANG_CAPTCHA_TEST_CODE IS SET !!!',
        '',
        'Every captcha accepts the fixed test answer, so the captcha no longer stops',
        'automated password guessing. Use this for automated tests only, NEVER in production.',
      ])}\n\n`,
    );
  }
}

async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`万象: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const app = await buildApp(config);
  announceStartup(config, app.startup, app.demoContent);
  // The one-time passwords have been shown; do not keep them around in memory.
  app.startup.generatedAdminPassword = null;
  app.startup.generatedDemoPasswords = [];

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      process.stderr.write(`万象: ${signal} again, exiting without waiting.\n`);
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close(); // stops accepting, finishes in-flight requests, closes the database
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // A second signal during shutdown exits at once (see above).
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  serving(() => app.admission.load.waiting > 0);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  process.stdout.write(
    `万象 ${config.version} is running at http://${shownHost}:${port}/ (database: ${app.dbDialect}); ` +
      `the back office: http://${shownHost}:${port}/admin/login\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `万象 failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
