/**
 * `classify()` is the error catalogue of spec §8 as data: (HTTP status, body, request kind) →
 * resolve or reject, plus the effects the host runs. The table below is the catalogue.
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  classify,
  type Effect,
  type HttpPorts,
  memoryTokenStore,
  normaliseBody,
  type RequestKind,
  runEffects,
} from '../src/index';

const removeToken: Effect = { type: 'removeToken' };
const logout: Effect = { type: 'logout' };
const reload: Effect = { type: 'reload' };
const success = (message: string): Effect => ({ type: 'notify', level: 'success', message });
const error = (message: string): Effect => ({ type: 'notify', level: 'error', message });
const warning = (message: string): Effect => ({ type: 'notify', level: 'warning', message });

interface Row {
  row: string;
  status: number;
  body: unknown;
  kind: RequestKind;
  result: 'resolve' | 'reject';
  effects: Effect[];
  /** For rejections: what the ApiError carries. */
  errorCode?: number;
  message?: string;
}

// biome-ignore format: one catalogue row per line reads as the table it is
const table: Row[] = [
  // 200, success true
  { row: 'ok mutation, server message', status: 200, body: { success: true, data: 1, message: '已保存' }, kind: 'mutation', result: 'resolve', effects: [success('已保存')] },
  { row: 'ok mutation, no message', status: 200, body: { success: true, data: 1 }, kind: 'mutation', result: 'resolve', effects: [success('操作成功')] },
  { row: 'ok mutation, empty message', status: 200, body: { success: true, message: '' }, kind: 'mutation', result: 'resolve', effects: [success('操作成功')] },
  { row: 'ok query', status: 200, body: { success: true, data: 1, message: '已保存' }, kind: 'query', result: 'resolve', effects: [] },
  { row: 'ok silent', status: 200, body: { success: true, data: 1, message: '已保存' }, kind: 'silent', result: 'resolve', effects: [] },
  { row: 'ok, 204 without a body, query', status: 204, body: undefined, kind: 'query', result: 'resolve', effects: [] },
  { row: 'ok, legacy msg', status: 200, body: { success: true, msg: '删除成功' }, kind: 'mutation', result: 'resolve', effects: [success('删除成功')] },
  // 200, success false
  { row: 'failure query, server message', status: 200, body: { success: false, errorCode: 2001, message: '库存不足' }, kind: 'query', result: 'reject', effects: [error('库存不足')], errorCode: 2001, message: '库存不足' },
  { row: 'failure mutation, no message', status: 200, body: { success: false, errorCode: 2001 }, kind: 'mutation', result: 'reject', effects: [error('操作失败')], errorCode: 2001, message: '操作失败' },
  { row: 'failure silent', status: 200, body: { success: false, errorCode: 10001, message: '验证码错误' }, kind: 'silent', result: 'reject', effects: [], errorCode: 10001, message: '验证码错误' },
  { row: 'failure, legacy code/msg', status: 200, body: { success: false, code: 10002, msg: '用户名或密码错误' }, kind: 'query', result: 'reject', effects: [error('用户名或密码错误')], errorCode: 10002, message: '用户名或密码错误' },
  { row: 'failure without errorCode', status: 200, body: { success: false }, kind: 'query', result: 'reject', effects: [error('操作失败')], errorCode: 200, message: '操作失败' },
  // errorCode 1
  { row: 'session revoked, query', status: 200, body: { success: false, errorCode: 1, message: '账号已停用' }, kind: 'query', result: 'reject', effects: [removeToken, reload], errorCode: 1, message: '账号已停用' },
  { row: 'session revoked, silent', status: 200, body: { success: false, errorCode: 1 }, kind: 'silent', result: 'reject', effects: [removeToken, reload], errorCode: 1, message: '登录状态已失效，请重新登录' },
  { row: 'session revoked, legacy code', status: 200, body: { success: false, code: 1, msg: 'x' }, kind: 'mutation', result: 'reject', effects: [removeToken, reload], errorCode: 1, message: 'x' },
  // 401
  { row: '401 with message', status: 401, body: { success: false, errorCode: 401, message: '登录已过期' }, kind: 'query', result: 'reject', effects: [removeToken, logout, warning('登录超时 登录已过期'), reload], errorCode: 401, message: '登录已过期' },
  { row: '401 without body', status: 401, body: '', kind: 'silent', result: 'reject', effects: [removeToken, logout, warning('登录超时'), reload], errorCode: 401, message: '请先登录' },
  // 500
  { row: '500 with message', status: 500, body: { success: false, errorCode: 500, message: '出错了' }, kind: 'mutation', result: 'reject', effects: [error('系统错误 出错了')], errorCode: 500, message: '出错了' },
  { row: '500 text body', status: 500, body: 'Internal Server Error', kind: 'silent', result: 'reject', effects: [error('系统错误')], errorCode: 500, message: '操作失败' },
  // passed to the caller
  { row: '403', status: 403, body: { success: false, errorCode: 403, message: '没有权限' }, kind: 'mutation', result: 'reject', effects: [], errorCode: 403, message: '没有权限' },
  { row: '404', status: 404, body: { success: false, errorCode: 404, message: '不存在' }, kind: 'query', result: 'reject', effects: [], errorCode: 404, message: '不存在' },
  { row: '409', status: 409, body: { success: false, errorCode: 409, message: '冲突' }, kind: 'mutation', result: 'reject', effects: [], errorCode: 409, message: '冲突' },
  { row: '422', status: 422, body: { success: false, errorCode: 422, message: '输入有误' }, kind: 'mutation', result: 'reject', effects: [], errorCode: 422, message: '输入有误' },
  { row: '429', status: 429, body: { success: false, errorCode: 429, message: '太频繁' }, kind: 'query', result: 'reject', effects: [], errorCode: 429, message: '太频繁' },
  { row: '502 from a proxy', status: 502, body: '<html>Bad Gateway</html>', kind: 'query', result: 'reject', effects: [], errorCode: 502, message: '操作失败' },
];

describe('classify', () => {
  it.each(table)('$row', ({ status, body, kind, result, effects, errorCode, message }) => {
    const outcome = classify(status, body, kind);
    expect(outcome.result).toBe(result);
    expect(outcome.effects).toEqual(effects);
    if (outcome.result === 'resolve') {
      expect(outcome.value).toBe(body);
    } else {
      expect(outcome.error).toBeInstanceOf(ApiError);
      expect(outcome.error.status).toBe(status);
      expect(outcome.error.errorCode).toBe(errorCode);
      expect(outcome.error.message).toBe(message);
      expect(outcome.error.body).toBe(body);
    }
  });

  it('a 422 keeps the per-field messages', () => {
    const outcome = classify(
      422,
      { success: false, errorCode: 422, message: '输入有误', data: { fields: { name: '请输入名称' } } },
      'mutation',
    );
    expect(outcome.result).toBe('reject');
    if (outcome.result === 'reject') expect(outcome.error.fields).toEqual({ name: '请输入名称' });
  });
});

describe('normaliseBody', () => {
  it('reads the current spelling', () => {
    expect(
      normaliseBody({ success: false, errorCode: 422, message: 'm', data: { fields: { a: 'b' } } }),
    ).toEqual({ success: false, errorCode: 422, message: 'm', fields: { a: 'b' } });
  });

  it('reads the legacy spelling, numeric strings included', () => {
    expect(normaliseBody({ success: false, code: '10001', msg: 'm' })).toEqual({
      success: false,
      errorCode: 10001,
      message: 'm',
      fields: {},
    });
  });

  it.each([null, undefined, 'text', 42, [], { code: 'abc', message: 7, success: 'yes' }, { code: '  ' }])(
    'tolerates a body that is not an envelope: %j',
    (body) => {
      expect(normaliseBody(body)).toEqual({
        success: undefined,
        errorCode: undefined,
        message: undefined,
        fields: {},
      });
    },
  );
});

describe('runEffects', () => {
  it('runs each effect through its port, in order', () => {
    const calls: string[] = [];
    const tokenStore = memoryTokenStore('t');
    const ports: HttpPorts = {
      tokenStore: {
        get: tokenStore.get,
        set: tokenStore.set,
        remove: () => {
          calls.push('remove');
          tokenStore.remove();
        },
      },
      notifier: { notify: (level, message) => calls.push(`${level} ${message}`) },
      reload: () => calls.push('reload'),
      onLogout: () => calls.push('logout'),
    };
    runEffects([removeToken, logout, warning('登录超时 x'), reload], ports);
    expect(calls).toEqual(['remove', 'logout', 'warning 登录超时 x', 'reload']);
    expect(tokenStore.get()).toBeNull();
  });
});
