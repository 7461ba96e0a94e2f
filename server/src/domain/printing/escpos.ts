/**
 * Laid-out receipts (layout.ts) as ESC/POS bytes. The printer commands come from
 * @point-of-sale/receipt-printer-encoder (initialize ESC @, text size GS !, bold ESC E, the
 * native QR code GS ( k, feed and cut GS V); the text is GBK bytes from iconv-lite handed to it
 * raw, because the encoder's own text path knows single-byte code pages only (README.md).
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { COLUMNS, gbk, type PaperWidth } from './gbk-text.js';
import { type Block, receiptBlocks, testPageBlocks } from './layout.js';
import type { Receipt, TestPage } from './receipt.js';

/** FS & — Chinese character mode: from here on a byte of 0x80 or more starts a GBK character. */
const CHINESE_MODE = [0x1c, 0x26];

/** QR module size in dots: about 2.5 cm square for an order number on either paper. */
const QR_MODULE: Record<PaperWidth, number> = { 58: 6, 80: 7 };

export interface RenderOptions {
  paperWidth: PaperWidth;
  /** Copies, one after the other, each cut (default 1). */
  copies?: number;
}

function encode(blocks: readonly Block[], paperWidth: PaperWidth): Uint8Array {
  const encoder = new ReceiptPrinterEncoder({
    language: 'esc-pos',
    columns: COLUMNS[paperWidth],
    newline: '\n',
    feedBeforeCut: 4,
  });
  encoder.initialize().raw(CHINESE_MODE);
  for (const block of blocks) {
    if (block.kind === 'qr') {
      encoder
        .align('center')
        .qrcode(block.data, { model: 2, size: QR_MODULE[paperWidth], errorlevel: 'm' })
        .align('left');
      continue;
    }
    if (block.big) encoder.size(2, 2);
    else if (block.tall) encoder.size(1, 2);
    if (block.bold) encoder.bold(true);
    encoder.raw(gbk(block.text));
    if (block.bold) encoder.bold(false);
    if (block.big || block.tall) encoder.size(1, 1);
    encoder.newline();
  }
  return encoder.cut('partial').encode();
}

function repeat(bytes: Uint8Array, copies: number): Uint8Array {
  const out = new Uint8Array(bytes.length * copies);
  for (let i = 0; i < copies; i++) out.set(bytes, i * bytes.length);
  return out;
}

/** An order's receipt as ESC/POS bytes, `copies` times. */
export function renderReceipt(receipt: Receipt, options: RenderOptions): Uint8Array {
  const bytes = encode(receiptBlocks(receipt, COLUMNS[options.paperWidth]), options.paperWidth);
  return repeat(bytes, Math.max(1, options.copies ?? 1));
}

/** The test page as ESC/POS bytes. */
export function renderTestPage(page: TestPage): Uint8Array {
  return encode(testPageBlocks(page, COLUMNS[page.paperWidth]), page.paperWidth);
}
