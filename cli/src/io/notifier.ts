/**
 * core's Notifier port for a terminal: one line per notice on stderr, so stdout carries only
 * what a script asked for (`--json`).
 */
import type { Writable } from 'node:stream';
import type { NoticeLevel, Notifier } from '@wanxiang/core';

const MARKS: Record<NoticeLevel, string> = { success: '✓', error: '✗', warning: '!', info: '·' };

export interface TerminalNotifier extends Notifier {
  /** Whether an error or warning was shown: the final report then does not repeat it. */
  readonly problemShown: boolean;
}

export function createTerminalNotifier(stderr: Writable): TerminalNotifier {
  let problemShown = false;
  return {
    get problemShown() {
      return problemShown;
    },
    notify(level, message) {
      if (level === 'error' || level === 'warning') problemShown = true;
      stderr.write(`${MARKS[level]} ${message}\n`);
    },
  };
}
