/** zh-CN messages, their placeholders, and the business constants of spec §9. */
import { describe, expect, it } from 'vitest';
import {
  CONFIRM_WIDTH,
  COPYRIGHT_YEAR,
  DEFAULT_PAGE_SIZE,
  FIRST_PAGE,
  format,
  formMessages,
  HTTP_TIMEOUT_MS,
  MODAL_WIDTH,
  messages,
  NOTIFICATION_DURATION_S,
  PAGINATION_LABEL,
  TOKEN_STORAGE_KEY,
  t,
} from '../src/index';

describe('format', () => {
  it('fills every placeholder it has a value for', () => {
    expect(format('请输入{label}', { label: '用户名' })).toBe('请输入用户名');
    expect(format('{label}须在{min}-{max}字符之间', { label: '密码', min: 6, max: 32 })).toBe(
      '密码须在6-32字符之间',
    );
    expect(format('{a}{a}', { a: 'x' })).toBe('xx');
  });

  it('keeps placeholders it has no value for, and zero is a value', () => {
    expect(format('{label}最小值为{min}', { label: '价格' })).toBe('价格最小值为{min}');
    expect(format('{label}最小值为{min}', { label: '价格', min: 0 })).toBe('价格最小值为0');
    expect(format('{x}', { x: undefined })).toBe('{x}');
    expect(format('无占位符')).toBe('无占位符');
  });

  it('works with the generic form messages of spec §5', () => {
    expect(format(formMessages.required, { label: '验证码' })).toBe('请输入验证码');
    expect(format(formMessages.string.max, { label: '名称', max: 20 })).toBe('名称最多20个字符');
    expect(format(formMessages.number.range, { label: '数量', min: 1, max: 9 })).toBe('数量须在1-9之间');
    expect(format(formMessages.array.min, { label: '图片', min: 1 })).toBe('最少1个图片');
  });
});

describe('t', () => {
  it('formats a message by key', () => {
    expect(t('loginTimeout', { message: '请重新登录' })).toBe('登录超时 请重新登录');
    expect(t('systemError', { message: 'x' })).toBe('系统错误 x');
    expect(t('notFound', { path: '/admin/nope', error: messages.notFoundError })).toBe(
      '/admin/nope has error Not Found',
    );
    expect(t('operationSucceeded')).toBe('操作成功');
  });

  it('keeps the spec’s exact texts', () => {
    expect(messages).toMatchObject({
      operationSucceeded: '操作成功',
      operationFailed: '操作失败',
      loginSucceeded: '登录成功',
      loginFailed: '登录失败',
      noPermission: '你没有任何权限！即将退出登录',
      anonymous: '匿名用户',
      loading: 'Loading...',
    });
  });
});

describe('business constants (spec §9)', () => {
  it('match the spec', () => {
    expect({
      HTTP_TIMEOUT_MS,
      DEFAULT_PAGE_SIZE,
      FIRST_PAGE,
      NOTIFICATION_DURATION_S,
      MODAL_WIDTH,
      CONFIRM_WIDTH,
      TOKEN_STORAGE_KEY,
      PAGINATION_LABEL,
      COPYRIGHT_YEAR,
    }).toEqual({
      HTTP_TIMEOUT_MS: 10_000,
      DEFAULT_PAGE_SIZE: 20,
      FIRST_PAGE: 1,
      NOTIFICATION_DURATION_S: 4.5,
      MODAL_WIDTH: 520,
      CONFIRM_WIDTH: 416,
      TOKEN_STORAGE_KEY: 'token',
      PAGINATION_LABEL: '条/页',
      COPYRIGHT_YEAR: 2024,
    });
  });
});
