import { describe, expect, it } from 'vitest';
import { dashboardFiguresFor, permissionsOf, todayAgainstYesterday } from '../../src/index';

describe('dashboard', () => {
  it('shows each figure to those who may read its area', () => {
    expect(dashboardFiguresFor(permissionsOf(['admin']))).toEqual([
      'ordersToday',
      'revenueTodayFen',
      'awaitingAcceptance',
      'awaitingRunner',
      'pendingRefunds',
      'jobsDown',
      'certificatesExpiring',
    ]);
    expect(dashboardFiguresFor(['monitor:read'])).toEqual(['jobsDown', 'certificatesExpiring']);
    expect(dashboardFiguresFor(['oms:read'])).toEqual([
      'ordersToday',
      'awaitingAcceptance',
      'pendingRefunds',
    ]);
    expect(dashboardFiguresFor(['finance:read', 'runner:write'])).toEqual(['revenueTodayFen']);
    expect(dashboardFiguresFor(permissionsOf(['editor']))).toEqual([]);
  });

  it('compares today so far with yesterday up to the same time of day (China)', () => {
    // 2025-01-06 10:30 in China.
    const now = Date.UTC(2025, 0, 6, 2, 30);
    expect(todayAgainstYesterday(now)).toEqual({
      today: { from: Date.UTC(2025, 0, 5, 16), to: now + 1 },
      yesterday: { from: Date.UTC(2025, 0, 4, 16), to: now + 1 - 86_400_000 },
    });
    // 00:10 in China is 16:10 UTC the day before: today began ten minutes ago.
    const justAfterMidnight = Date.UTC(2025, 0, 5, 16, 10);
    expect(todayAgainstYesterday(justAfterMidnight).today.from).toBe(Date.UTC(2025, 0, 5, 16));
  });
});
