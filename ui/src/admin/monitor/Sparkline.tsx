/** A small line of the last samples, for figures people watch rather than read. */
export function Sparkline({
  values,
  max,
  label,
}: {
  values: readonly number[];
  max?: number;
  label: string;
}) {
  const width = 240;
  const height = 48;
  if (values.length < 2) {
    return <div className="wx-sparkline wx-sparkline-empty">正在采集趋势数据…</div>;
  }
  const top = Math.max(max ?? 0, ...values, 1);
  const step = width / (values.length - 1);
  const points = values.map(
    (v, i) => `${(i * step).toFixed(1)},${(height - (v / top) * (height - 4) - 2).toFixed(1)}`,
  );
  return (
    <svg
      className="wx-sparkline"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <polyline
        points={`0,${height} ${points.join(' ')} ${width},${height}`}
        fill="rgba(22,119,255,0.08)"
        stroke="none"
      />
      <polyline
        points={points.join(' ')}
        fill="none"
        stroke="#1677ff"
        strokeWidth="1.5"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
