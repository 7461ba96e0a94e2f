/** The product mark: a small mosaic — 万象, "all things", many tiles making one picture. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="wx-logo">
      <defs>
        <linearGradient id="wx-logo-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4096ff" />
          <stop offset="1" stopColor="#0958d9" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#wx-logo-bg)" />
      <rect x="7" y="7" width="8" height="8" rx="2" fill="#fff" />
      <rect x="17" y="7" width="8" height="8" rx="2" fill="#fff" opacity="0.6" />
      <rect x="7" y="17" width="8" height="8" rx="2" fill="#fff" opacity="0.6" />
      <rect x="17" y="17" width="8" height="8" rx="4" fill="#ffd666" />
    </svg>
  );
}
