/** How the monitoring screens print figures: percentages, milliseconds, times (China time, as the rest). */
import { CHINA_OFFSET_MS, chinaDateTime } from '@wanxiang/core';
import { JOB_STATUS_OPTIONS } from './labels';

export const NO_FIGURE = '—';

/** 99.95 → "99.95%"; a job never checked has no figure (not 0%). */
export function percentText(value: number | null | undefined): string {
  return typeof value === 'number' ? `${value.toFixed(2).replace(/\.?0+$/, '')}%` : NO_FIGURE;
}

export function msText(value: number | null | undefined): string {
  return typeof value === 'number' ? `${Math.round(value)} ms` : NO_FIGURE;
}

/**
 * `2026-11-26 16:05:09` in China Standard Time (core's chinaDateTime, with the seconds: checks come
 * every 20 s or more, so minutes alone would repeat in the history).
 */
export function timeText(iso: string | null | undefined): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  if (!Number.isFinite(ms)) return NO_FIGURE;
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** `11-26 16:05` (China time): chart axes. */
export function shortTimeText(iso: string | null | undefined): string {
  return (iso && chinaDateTime(iso)?.slice(5)) || NO_FIGURE;
}

const STATUS = new Map(JOB_STATUS_OPTIONS.map((o) => [o.value, o]));

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
