/** How the monitoring screens print figures: percentages, milliseconds, times (China time, as the rest). */
import { JOB_STATUS } from '@wanxiang/core';
import dayjs from 'dayjs';

export const NO_FIGURE = '—';

/** 99.95 → "99.95%"; a job never checked has no figure (not 0%). */
export function percentText(value: number | null | undefined): string {
  return typeof value === 'number' ? `${value.toFixed(2).replace(/\.?0+$/, '')}%` : NO_FIGURE;
}

export function msText(value: number | null | undefined): string {
  return typeof value === 'number' ? `${Math.round(value)} ms` : NO_FIGURE;
}

export function timeText(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : NO_FIGURE;
}

export function shortTimeText(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('MM-DD HH:mm') : NO_FIGURE;
}

const STATUS = new Map(JOB_STATUS.map((o) => [o.value, o]));

/** 正常 / 故障 / 待确认 / 已暂停, and its antd colour, from core's definition. */
export function statusOption(status: string): { label: string; color: string } {
  const option = STATUS.get(status);
  return { label: option?.label ?? status, color: option?.color ?? 'default' };
}

/** An uptime figure's colour: green from 99 %, orange from 95 %, red below. */
export function uptimeTone(value: number | null | undefined): 'good' | 'fair' | 'poor' | 'none' {
  if (typeof value !== 'number') return 'none';
  if (value >= 99) return 'good';
  if (value >= 95) return 'fair';
  return 'poor';
}
