/**
 * What a monitor job's address must look like for its kind: `tcp://host:port` (a host name,
 * IPv4, or an IPv6 literal in brackets; port 1–65535) for a TCP job, an http(s) URL for the page
 * kinds. One rule for the definition's check on save, the /job form and the runner's parse.
 * Kept apart from the definitions so the public form uses it without loading them.
 */

const TCP_ADDRESS = /^tcp:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\]):(\d{1,5})\/?$/i;

export const JOB_TARGET_MESSAGES = {
  tcp: 'TCP 端口任务的地址须为 tcp://主机:端口，如 tcp://db.example.com:5432',
  web: '网页类任务的地址须以 http:// 或 https:// 开头',
} as const;

/** `tcp://host:port` → host (brackets removed) and port; null when it is not one. */
export function tcpAddress(url: string): { host: string; port: number } | null {
  const m = TCP_ADDRESS.exec(url);
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: (m[1] as string).replace(/^\[|\]$/g, ''), port };
}

/** Why `url` does not suit a job of `kind` (Chinese), or null when it does. */
export function jobTargetProblem(kind: string, url: string): string | null {
  if (kind === 'tcp') return tcpAddress(url) ? null : JOB_TARGET_MESSAGES.tcp;
  return /^https?:\/\//i.test(url) ? null : JOB_TARGET_MESSAGES.web;
}
