/** The heartbeat rule, every case of Uptime Kuma's walk. */
import { describe, expect, it } from 'vitest';
import { nextJobStatus } from '../../src/index';

describe('nextJobStatus', () => {
  it('first check ok: up, important, no alert', () => {
    expect(nextJobStatus({ previous: 'pending', retryCount: 0, maxRetries: 2, ok: true })).toEqual({
      status: 'up',
      retryCount: 0,
      important: true,
      alert: null,
    });
  });
  it('ok after a pending retry: up, retries cleared, not important', () => {
    expect(nextJobStatus({ previous: 'pending', retryCount: 1, maxRetries: 2, ok: true })).toEqual({
      status: 'up',
      retryCount: 0,
      important: false,
      alert: null,
    });
  });
  it('ok while up: nothing to report', () => {
    expect(nextJobStatus({ previous: 'up', retryCount: 0, maxRetries: 0, ok: true })).toEqual({
      status: 'up',
      retryCount: 0,
      important: false,
      alert: null,
    });
  });
  it('ok after down: up, important, alert up', () => {
    expect(nextJobStatus({ previous: 'down', retryCount: 3, maxRetries: 3, ok: true })).toEqual({
      status: 'up',
      retryCount: 0,
      important: true,
      alert: 'up',
    });
  });
  it('failure while retries remain: pending, one more retry, no alert', () => {
    expect(nextJobStatus({ previous: 'up', retryCount: 0, maxRetries: 2, ok: false })).toEqual({
      status: 'pending',
      retryCount: 1,
      important: false,
      alert: null,
    });
    expect(nextJobStatus({ previous: 'pending', retryCount: 1, maxRetries: 2, ok: false })).toEqual({
      status: 'pending',
      retryCount: 2,
      important: false,
      alert: null,
    });
  });
  it('failure with no retry left: down, important, alert down', () => {
    expect(nextJobStatus({ previous: 'pending', retryCount: 2, maxRetries: 2, ok: false })).toEqual({
      status: 'down',
      retryCount: 2,
      important: true,
      alert: 'down',
    });
    expect(nextJobStatus({ previous: 'up', retryCount: 0, maxRetries: 0, ok: false })).toEqual({
      status: 'down',
      retryCount: 0,
      important: true,
      alert: 'down',
    });
  });
  it('first check failing without retries: down with an alert', () => {
    expect(nextJobStatus({ previous: 'pending', retryCount: 0, maxRetries: 0, ok: false }).alert).toBe(
      'down',
    );
  });
  it('failure while down: stays down, alerts once only', () => {
    expect(nextJobStatus({ previous: 'down', retryCount: 2, maxRetries: 2, ok: false })).toEqual({
      status: 'down',
      retryCount: 2,
      important: false,
      alert: null,
    });
  });
  it('a walk: up, two retries, down, down, up', () => {
    let state = { previous: 'up' as 'up' | 'down' | 'pending', retryCount: 0 };
    const alerts: (string | null)[] = [];
    for (const ok of [false, false, false, false, true]) {
      const out = nextJobStatus({ ...state, maxRetries: 2, ok });
      alerts.push(`${out.status}:${out.alert}`);
      state = { previous: out.status, retryCount: out.retryCount };
    }
    expect(alerts).toEqual(['pending:null', 'pending:null', 'down:down', 'down:null', 'up:up']);
  });
});
