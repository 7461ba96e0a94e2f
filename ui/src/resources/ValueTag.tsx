/**
 * A small coloured label for enum values and list items, in antd's preset colours (the registry
 * names them: green, orange, …). Plain markup and a stylesheet: antd's Tag would add its component
 * to every list screen for a span (QUALITY.md: ≤ 400 KB before the first list).
 */
import type { ReactNode } from 'react';

const PRESETS = new Set([
  'magenta',
  'red',
  'volcano',
  'orange',
  'gold',
  'lime',
  'green',
  'cyan',
  'blue',
  'geekblue',
  'purple',
]);

export function ValueTag({ color, children }: { color?: string; children: ReactNode }) {
  if (color && /^#[0-9a-f]{3,8}$/i.test(color)) {
    return (
      <span className="wx-tag" style={{ color: '#fff', background: color, borderColor: color }}>
        {children}
      </span>
    );
  }
  const preset = color && PRESETS.has(color) ? color : 'default';
  return <span className={`wx-tag wx-tag-${preset}`}>{children}</span>;
}
