import { describe, expect, it } from 'vitest';
import {
  chinaCompactStamp,
  fenToYuan,
  formatDate,
  formatDateTime,
  formatMoney,
  yuanToFen,
} from '../src/index';

describe('money', () => {
  it.each([
    [1230, '¥12.30'],
    [5, '¥0.05'],
    [0, '¥0.00'],
    [-50, '-¥0.50'],
    [123456789, '¥1,234,567.89'],
  ])('formatMoney(%s) = %s', (fen, text) => expect(formatMoney(fen)).toBe(text));

  it('shows a dash for no amount', () => {
    expect(formatMoney(null)).toBe('-');
    expect(formatMoney(undefined)).toBe('-');
  });

  it('converts yuan text to fen exactly and back', () => {
    expect(yuanToFen('12.3')).toBe(1230);
    expect(yuanToFen('0.07')).toBe(7);
    expect(yuanToFen(19.99)).toBe(1999);
    expect(yuanToFen('-1.5')).toBe(-150);
    expect(yuanToFen('1.234')).toBeNull();
    expect(yuanToFen('abc')).toBeNull();
    expect(fenToYuan(1999)).toBe('19.99');
    expect(fenToYuan(-5)).toBe('-0.05');
  });
});

describe('dates', () => {
  it('formats in China Standard Time whatever the machine zone', () => {
    expect(formatDateTime('2024-05-01T06:30:00.000Z')).toBe('2024-05-01 14:30');
    expect(formatDateTime(Date.UTC(2024, 11, 31, 16, 5))).toBe('2025-01-01 00:05');
    expect(formatDate('2024-12-31T16:05:00Z')).toBe('2025-01-01');
  });

  it('stamps order numbers with the China date and time to the second', () => {
    expect(chinaCompactStamp(Date.UTC(2024, 11, 31, 16, 5, 9))).toBe('20250101000509');
    expect(chinaCompactStamp(Date.UTC(2024, 4, 1, 6, 30))).toBe('20240501143000');
  });

  it('shows a dash for empty or invalid values', () => {
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime('not a date')).toBe('-');
    expect(formatDate('')).toBe('-');
  });
});
