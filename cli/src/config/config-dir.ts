/**
 * Where the CLI keeps its credentials: the platform's per-user config directory, as other
 * command-line tools do, so an operator finds it where they expect and backups include it.
 */
import { isAbsolute, join, win32 } from 'node:path';

export const CONFIG_DIR_ENV = 'WANXIANG_CONFIG_DIR';
const APP_DIR = 'wanxiang';

export interface ConfigDirSources {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  homedir: string;
}

export function resolveConfigDir({ env, platform, homedir }: ConfigDirSources): string {
  // An explicit directory wins: tests and operators with several accounts use it.
  const explicit = env[CONFIG_DIR_ENV];
  if (explicit) return explicit;
  if (platform === 'win32') {
    // APPDATA is the roaming profile; it is missing only in unusual service accounts.
    return win32.join(env.APPDATA || win32.join(homedir, 'AppData', 'Roaming'), APP_DIR);
  }
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, APP_DIR);
  return join(homedir, '.config', APP_DIR);
}
