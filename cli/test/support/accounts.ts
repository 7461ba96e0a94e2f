/** The accounts the built test server seeds (testing/built-server.ts) and shortcuts around them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_ADMIN_PASSWORD, TEST_CAPTCHA_CODE, TEST_DEMO_PASSWORD } from '../../../testing/built-server';
import { runCli } from './cli';

export { TEST_ADMIN_PASSWORD, TEST_CAPTCHA_CODE };

export const ACCOUNTS = {
  admin: TEST_ADMIN_PASSWORD,
  operator: TEST_DEMO_PASSWORD,
  editor: TEST_DEMO_PASSWORD,
  guest: TEST_DEMO_PASSWORD,
} as const;

export async function login(apiUrl: string, configDir: string, username: keyof typeof ACCOUNTS) {
  const result = await runCli(
    ['login', '--api-url', apiUrl, '--username', username, '--captcha-code', TEST_CAPTCHA_CODE],
    { configDir, env: { WANXIANG_PASSWORD: ACCOUNTS[username] } },
  );
  if (result.code !== 0) throw new Error(`login as ${username} failed:\n${result.stderr}`);
  return result;
}

export function credentialsPath(configDir: string): string {
  return join(configDir, 'credentials.json');
}

export function readCredentials(configDir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(credentialsPath(configDir), 'utf8')) as Record<string, unknown>;
}

/** Asks the server directly, bypassing the CLI: what a token is worth right now. */
export async function currentUserStatus(apiUrl: string, token: string): Promise<number> {
  const response = await fetch(`${apiUrl}/api/user/current`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.status;
}
