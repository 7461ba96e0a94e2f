/**
 * The last checks as a row of small bars, oldest left (Uptime Kuma's heartbeat bar): green up,
 * red down, orange pending; empty slots on the left until 50 checks exist. Plain elements: no
 * chart library for the list.
 */
import type { Beat } from './api';
import { msText, statusOption, timeText } from './format';
import './monitor.css';

export const BAR_SLOTS = 50;

export function UptimeBar({ beats, slots = BAR_SLOTS }: { beats: readonly Beat[]; slots?: number }) {
  const shown = beats.slice(-slots);
  const empty = slots - shown.length;
  const downs = shown.filter((b) => b.status === 'down').length;
  return (
    <div
      className="wx-uptime-bar"
      role="img"
      aria-label={`最近 ${shown.length} 次检查：${shown.length - downs} 次正常，${downs} 次故障`}
      data-beats={shown.map((b) => b.status[0]).join('')}
    >
      {Array.from({ length: empty }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <span key={`e${i}`} className="wx-uptime-beat wx-uptime-beat-empty" />
      ))}
      {shown.map((beat, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: a check's place in the row is its identity here
          key={`${beat.at}-${i}`}
          className={`wx-uptime-beat wx-uptime-beat-${beat.status}`}
          title={`${timeText(beat.at)} ${statusOption(beat.status).label} ${msText(beat.latencyMs)}`}
        />
      ))}
    </div>
  );
}
