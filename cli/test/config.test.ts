import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normaliseApiUrl, resolveApiUrl } from '../src/config/api-url';
import { resolveConfigDir } from '../src/config/config-dir';
import { CredentialsFile, fileTokenStore, savedLogin } from '../src/config/credentials';
import { CliError, ExitCode } from '../src/errors';
import { tempConfigDir } from './support/cli';

const posix = process.platform !== 'win32';

describe('config directory', () => {
  const home = '/home/ops';
  it('is WANXIANG_CONFIG_DIR when set, on every platform', () => {
    const env = { WANXIANG_CONFIG_DIR: '/srv/wx', XDG_CONFIG_HOME: '/x', APPDATA: 'C:\\A' };
    expect(resolveConfigDir({ env, platform: 'linux', homedir: home })).toBe('/srv/wx');
    expect(resolveConfigDir({ env, platform: 'win32', homedir: home })).toBe('/srv/wx');
  });
  it('follows XDG_CONFIG_HOME, else ~/.config', () => {
    expect(resolveConfigDir({ env: { XDG_CONFIG_HOME: '/cfg' }, platform: 'linux', homedir: home })).toBe(
      '/cfg/wanxiang',
    );
    expect(resolveConfigDir({ env: {}, platform: 'darwin', homedir: home })).toBe(
      '/home/ops/.config/wanxiang',
    );
  });
  it('ignores a relative XDG_CONFIG_HOME, as the XDG spec says', () => {
    expect(resolveConfigDir({ env: { XDG_CONFIG_HOME: 'cfg' }, platform: 'linux', homedir: home })).toBe(
      '/home/ops/.config/wanxiang',
    );
  });
  it('is %APPDATA%\\wanxiang on Windows', () => {
    expect(
      resolveConfigDir({
        env: { APPDATA: 'C:\\Users\\ops\\AppData\\Roaming' },
        platform: 'win32',
        homedir: 'C:\\Users\\ops',
      }),
    ).toBe('C:\\Users\\ops\\AppData\\Roaming\\wanxiang');
    expect(resolveConfigDir({ env: {}, platform: 'win32', homedir: 'C:\\Users\\ops' })).toBe(
      'C:\\Users\\ops\\AppData\\Roaming\\wanxiang',
    );
  });
});

describe('credentials file', () => {
  const api = 'http://wx.test:8080';
  const other = 'http://other.test';

  it('is written 0600 in a 0700 directory it creates, and read back', () => {
    const dir = join(tempConfigDir(), 'nested', 'wanxiang');
    const file = new CredentialsFile(dir);
    file.write({ apiUrl: api, token: 't0k3n', username: 'admin', expire: 1_800_000_000_000 });
    if (posix) {
      expect(statSync(file.path).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(file.read()).toEqual({
      apiUrl: api,
      token: 't0k3n',
      username: 'admin',
      expire: 1_800_000_000_000,
    });
  });

  it.runIf(posix)('tightens a file that had looser permissions when it is rewritten', () => {
    const file = new CredentialsFile(tempConfigDir());
    writeFileSync(file.path, JSON.stringify({ apiUrl: api }));
    chmodSync(file.path, 0o644);
    file.write({ apiUrl: api, token: 'secret' });
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
  });

  it('treats a missing or damaged file as nobody signed in', () => {
    const file = new CredentialsFile(tempConfigDir());
    expect(file.read()).toBeNull();
    writeFileSync(file.path, '{"apiUrl": ');
    expect(file.read()).toBeNull();
    expect(savedLogin(file, api)).toBeNull();
  });

  it('gives the token only to the server it belongs to', () => {
    const file = new CredentialsFile(tempConfigDir());
    file.write({ apiUrl: api, token: 'secret', username: 'admin' });
    expect(fileTokenStore(file, api).get()).toBe('secret');
    expect(fileTokenStore(file, other).get()).toBeNull();
    expect(savedLogin(file, other)).toBeNull();
  });

  it('removing the token keeps the server address; a 401 elsewhere removes nothing', () => {
    const file = new CredentialsFile(tempConfigDir());
    file.write({ apiUrl: api, token: 'secret', username: 'admin', expire: 1 });
    fileTokenStore(file, other).remove();
    expect(file.read()?.token).toBe('secret');
    fileTokenStore(file, api).remove();
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toEqual({ apiUrl: api });
  });

  it('setting a token through the port keeps what else was saved for that server', () => {
    const file = new CredentialsFile(tempConfigDir());
    fileTokenStore(file, api).set('first');
    expect(existsSync(file.path)).toBe(true);
    file.write({ apiUrl: api, token: 'first', username: 'admin' });
    fileTokenStore(file, api).set('second');
    expect(file.read()).toEqual({ apiUrl: api, token: 'second', username: 'admin' });
  });
});

describe('API URL', () => {
  it('prefers the given URL, then the saved one, then localhost:8080', () => {
    expect(resolveApiUrl('https://wx.example.com/', 'http://saved')).toBe('https://wx.example.com');
    expect(resolveApiUrl(undefined, 'http://saved.test')).toBe('http://saved.test');
    expect(resolveApiUrl('', undefined)).toBe('http://localhost:8080');
  });
  it('spells one server one way, keeping a path prefix', () => {
    expect(normaliseApiUrl(' HTTP://WX.Example.com:8080/wanxiang/// ')).toBe(
      'http://wx.example.com:8080/wanxiang',
    );
    expect(normaliseApiUrl('http://wx.test/?x=1#top')).toBe('http://wx.test');
  });
  it.each(['localhost:8080', 'ftp://wx.test', 'not a url'])('refuses %s as a usage error', (raw) => {
    const error = (() => {
      try {
        normaliseApiUrl(raw);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.usage);
    expect((error as CliError).message).toContain(raw);
  });
});
