/**
 * The CNAME an accelerated domain is pointed at: its name with dots turned to dashes under the
 * platform's CDN base (`img.example.com` → `img-example-com.cdn.wanxiang.example`). A wildcard
 * (`*.example.com`) becomes `wildcard-example-com`: `*` is not allowed in a DNS label. The
 * result stays one label per domain, so two domains never share a CNAME.
 */
export const DEFAULT_CDN_CNAME_BASE = 'cdn.wanxiang.local';

export function cnameOf(domain: string, base: string = DEFAULT_CDN_CNAME_BASE): string {
  const label = domain.toLowerCase().replace(/^\*\./, 'wildcard.').replace(/\./g, '-');
  return `${label.length <= 63 ? label : shortened(label)}.${base.replace(/^\.+|\.+$/g, '')}`;
}

/** A DNS label is at most 63 characters: a long name keeps its start and a hash of the whole. */
function shortened(label: string): string {
  // FNV-1a, 32 bits: stable across runtimes, no crypto needed for a name.
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${label.slice(0, 54).replace(/-+$/, '')}-${hash.toString(16).padStart(8, '0')}`;
}
