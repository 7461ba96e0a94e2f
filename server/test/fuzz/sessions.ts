/**
 * The fuzz's callers: the demo accounts signed in through the real routes, and anonymous.
 *
 * Fuzzing may end a caller's session (GET /api/login/signout is fuzzed like any route): after
 * a request answered 401 or touched sign-out, the session is checked and the account signed in
 * again. Sign-in is limited per account and per address (core SIGNIN_LIMIT); the fuzzed
 * requests come from other addresses (FUZZ_ADDRESS) than the harness's sign-ins, and if
 * fuzzing /api/login/signin with an account's name happened to lock it, the test clock is
 * moved past the window before signing in again — the limit's own rule, no reset by hand.
 */
import { SIGNIN_LIMIT } from '@wanxiang/core';
import { ADMIN_PASSWORD, DEMO_PASSWORD, type TestApp } from '../helpers/app.js';
import { bearer, signIn } from '../helpers/auth.js';

export const ROLES = ['admin', 'operator', 'editor', 'guest', 'anonymous'] as const;
export type Role = (typeof ROLES)[number];

/** The address fuzzed requests come from (documentation range, RFC 5737). */
export const FUZZ_ADDRESS = '203.0.113.9';

export class Sessions {
  private readonly tokens = new Map<Role, string>();

  constructor(private readonly t: TestApp) {}

  /** The usernames the fuzz acts as: their rows are never offered as path ids (see pools). */
  static readonly ACCOUNTS: readonly string[] = ROLES.filter((r) => r !== 'anonymous');

  async signInAll(): Promise<void> {
    for (const role of Sessions.ACCOUNTS) await this.signIn(role as Role);
  }

  headers(role: Role): Record<string, string> {
    const token = this.tokens.get(role);
    return token ? bearer(token) : {};
  }

  private async signIn(role: Role): Promise<void> {
    const password = role === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD;
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await signIn(this.t.app, role, password);
      const body = res.json();
      if (body.success) {
        this.tokens.set(role, body.data.token as string);
        return;
      }
      if (res.statusCode !== 429) throw new Error(`the fuzz could not sign ${role} in: ${res.body}`);
      this.t.clock.advance(SIGNIN_LIMIT.windowMs + 1);
    }
    throw new Error(`${role} stays locked after the sign-in window`);
  }

  /** Signs `role` in again if its session no longer answers; true when it did. */
  async ensure(role: Role): Promise<boolean> {
    if (role === 'anonymous') return false;
    const res = await this.t.app.inject({
      method: 'GET',
      url: '/api/user/current',
      headers: this.headers(role),
    });
    if (res.statusCode === 200 && res.json().success) return false;
    await this.signIn(role);
    return true;
  }
}
