/**
 * How a secret number on file is shown (merchantApplications' ID number and bank account): the
 * server stores this next to the write-only value whenever it is written (`xMasked`), and every
 * screen shows that stored text, so there is one masking rule and the full number never travels.
 */

/** `110101199001011234` → `110***********1234`: enough to recognise, not enough to use. */
export function maskText(text: string): string {
  if (text.length <= 4) return '*'.repeat(text.length);
  if (text.length < 10) return `${'*'.repeat(text.length - 2)}${text.slice(-2)}`;
  return `${text.slice(0, 3)}${'*'.repeat(text.length - 7)}${text.slice(-4)}`;
}
