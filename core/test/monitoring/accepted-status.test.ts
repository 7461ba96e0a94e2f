import { describe, expect, it } from 'vitest';
import { parseAcceptedStatus, statusAccepted } from '../../src/index';

describe('accepted status', () => {
  it('parses codes and ranges', () => {
    expect(parseAcceptedStatus('200-299,301, 302-303')).toEqual([
      [200, 299],
      [301, 301],
      [302, 303],
    ]);
  });
  it('accepts within a range and single codes only', () => {
    expect(statusAccepted(204, '200-299')).toBe(true);
    expect(statusAccepted(301, '200-299')).toBe(false);
    expect(statusAccepted(301, '200-299,301')).toBe(true);
    expect(statusAccepted(503, '200-299,301')).toBe(false);
  });
  it('an empty spec is 200-299', () => {
    expect(statusAccepted(200, '')).toBe(true);
    expect(statusAccepted(404, '')).toBe(false);
  });
});
