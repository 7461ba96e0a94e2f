import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

// Configuration is read from the environment only; no database is involved.
describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      database: { dialect: 'sqlite', file: path.join(path.resolve('./data'), 'wanxiang.db') },
      adminPassword: null,
      captchaTestCode: null,
      demoUsers: true,
      demoPassword: null,
      sessionTtlMs: 168 * 3_600_000,
      listRowCacheBytes: 8 * 2 ** 20,
      trustProxy: false,
      logLevel: 'info',
      scheduler: true,
      orderTimersEveryMs: 30_000,
    });
    expect(config.uiDist).toBe(path.resolve(import.meta.dirname, '../../ui/dist'));
    expect(config.version).toMatch(/^([0-9a-f]{4,40}|\d+\.\d+\.\d+)$/);
    expect(typeof config.now()).toBe('number');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9090',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/wx-data',
      DATABASE_URL: 'postgres://u:p@db:5432/wanxiang',
      WANXIANG_ADMIN_PASSWORD: 's3cret!',
      WANXIANG_CAPTCHA_TEST_CODE: 'abcd',
      WANXIANG_DEMO: 'off',
      WANXIANG_DEMO_PASSWORD: 'demo-pass',
      SESSION_TTL_HOURS: '12',
      LIST_ROW_CACHE_MB: '0',
      UI_DIST: '/srv/ui',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      WANXIANG_VERSION: 'v1.2.3',
      LOG_LEVEL: 'warn',
      SCHEDULER: 'off',
      ORDER_TIMERS_EVERY_MS: '250',
    });
    expect(config).toMatchObject({
      port: 9090,
      host: '127.0.0.1',
      dataDir: '/tmp/wx-data',
      database: {
        dialect: 'postgres',
        url: 'postgres://u:p@db:5432/wanxiang',
        poolSize: 20,
        prepared: true,
        pipeline: true,
      },
      adminPassword: 's3cret!',
      captchaTestCode: 'abcd',
      demoUsers: false,
      demoPassword: 'demo-pass',
      sessionTtlMs: 12 * 3_600_000,
      listRowCacheBytes: 0,
      uiDist: '/srv/ui',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      version: 'v1.2.3',
      logLevel: 'warn',
      scheduler: false,
      orderTimersEveryMs: 250,
    });
  });

  it.each([
    ['0', false, false],
    ['false', false, false],
    ['OFF', false, false],
    ['1', true, true],
    ['on', true, true],
    ['', true, true],
    ['users', true, false],
    ['Users', true, false],
  ])('WANXIANG_DEMO=%j → demo users %s, demo content %s', (value, users, content) => {
    const config = loadConfig({ WANXIANG_DEMO: value });
    expect(config.demoUsers).toBe(users);
    expect(config.demoContent).toBe(content);
  });

  it.each([
    ['true', true],
    ['2', 2],
    ['off', false],
  ])('TRUST_PROXY=%j → %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ['off', false],
    ['0', false],
    ['ON', true],
    ['', true],
  ])('SCHEDULER=%j → timers run: %s', (value, expected) => {
    expect(loadConfig({ SCHEDULER: value }).scheduler).toBe(expected);
  });

  it.each([
    ['https://wx.example.com', 'https://wx.example.com'],
    ['https://wx.example.com/', 'https://wx.example.com'],
    ['http://10.0.0.5:8080', 'http://10.0.0.5:8080'],
    ['HTTPS://WX.Example.com:443', 'https://wx.example.com'],
  ])('PUBLIC_URL=%j → %j', (value, expected) => {
    expect(loadConfig({ PUBLIC_URL: value }).publicUrl).toBe(expected);
  });

  it.each([
    [undefined, undefined],
    ['0', 0],
    ['16', 16],
  ])("REQUEST_CONCURRENCY=%j → %j (unset: the gate's own default)", (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { REQUEST_CONCURRENCY: value }).requestConcurrency).toBe(
      expected,
    );
  });

  it('turns PostgreSQL prepared statements off with DATABASE_PREPARED=off', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@db/wx', DATABASE_PREPARED: 'off' }).database,
    ).toMatchObject({
      dialect: 'postgres',
      prepared: false,
    });
  });

  it('turns PostgreSQL pipelining off with DATABASE_PIPELINE=off', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@db/wx', DATABASE_PIPELINE: 'off' }).database,
    ).toMatchObject({ dialect: 'postgres', prepared: true, pipeline: false });
  });

  it('leaves PUBLIC_URL unset by default (links follow the request)', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
  });

  it.each([
    'wx.example.com',
    '/scan_login',
    'ftp://wx.example.com',
    'javascript:alert(1)',
    'https://',
    'https://user:pw@wx.example.com',
    'https://wx.example.com/app',
    'https://wx.example.com/?a=1',
    'https://wx.example.com/#x',
  ])('rejects PUBLIC_URL=%j with a clear error', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow('PUBLIC_URL');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['SESSION_TTL_HOURS', '-1'],
    ['LIST_ROW_CACHE_MB', '-1'],
    ['LIST_ROW_CACHE_MB', '1.5'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://db/x'],
    ['SCHEDULER', 'sometimes'],
    ['ORDER_TIMERS_EVERY_MS', '99'],
    ['ORDER_TIMERS_EVERY_MS', '1.5'],
    ['REQUEST_CONCURRENCY', '-1'],
    ['REQUEST_CONCURRENCY', 'many'],
  ])('rejects %s=%j with a clear error', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
