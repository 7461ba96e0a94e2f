/** How the monitor shows bytes, durations and its time stamp, in Chinese. */
import { formatDateTime } from '@wanxiang/core';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${UNITS[unit]}`;
}

export function formatDuration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} 天 ${hours} 小时 ${minutes} 分钟`;
  if (hours > 0) return `${hours} 小时 ${minutes} 分钟`;
  if (minutes > 0) return `${minutes} 分钟 ${seconds % 60} 秒`;
  return `${seconds} 秒`;
}

/** Green, then orange above 70 %, red above 90 %. */
export function usageColor(percent: number): string {
  if (percent >= 90) return '#ff4d4f';
  if (percent >= 70) return '#faad14';
  return '#52c41a';
}

/**
 * `2024-05-01 14:30:05` in China Standard Time whatever the browser's zone: core's formatDateTime
 * and the instant's seconds, which are the same in every zone (offsets are whole minutes).
 */
export function formatStamp(value: string | number): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return `${formatDateTime(date)}:${String(date.getUTCSeconds()).padStart(2, '0')}`;
}
