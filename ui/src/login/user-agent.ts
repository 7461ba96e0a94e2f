/**
 * A browser's User-Agent as people name it ("Chrome 126 · Windows"), for the confirm screen's
 * "who is asking". Only the common families; anything else shows as 未知浏览器 / the raw OS guess.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/MicroMessenger\/([\d.]+)/, '微信'],
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge'],
  [/OPR\/([\d.]+)/, 'Opera'],
  [/Firefox\/([\d.]+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari/, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/HarmonyOS/, '鸿蒙'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return '未知设备';
  if (/^wanxiang-cli\//.test(ua) || /^node/i.test(ua)) return '万象命令行';
  let browser = '未知浏览器';
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${(match[1] ?? '').split('.')[0]}`.trim();
      break;
    }
  }
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  return system ? `${browser} · ${system}` : browser;
}
