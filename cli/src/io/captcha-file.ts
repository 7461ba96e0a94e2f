/**
 * A terminal cannot show the captcha image, so it is written to a file the operator opens
 * (gh's device login prints a URL the same way). The file lives in a private temporary
 * directory that is removed when the command ends.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The bytes of a `data:` URI (base64 or percent-encoded), e.g. `data:image/svg+xml;base64,…`. */
export function decodeDataUri(uri: string): Buffer {
  const match = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(uri);
  if (!match) throw new Error('验证码图片不是 data: URI');
  const payload = match[3] ?? '';
  return match[2] ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
}

export interface CaptchaFile {
  /** Writes the image (replacing the previous one) and returns its path. */
  show(dataUri: string): string;
  remove(): void;
}

export function createCaptchaFile(): CaptchaFile {
  let dir: string | null = null;
  return {
    show(dataUri) {
      dir ??= mkdtempSync(join(tmpdir(), 'wanxiang-captcha-'));
      const path = join(dir, 'captcha.svg');
      writeFileSync(path, decodeDataUri(dataUri), { mode: 0o600 });
      return path;
    },
    remove() {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}
