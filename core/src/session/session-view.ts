import type { SnapshotFrom } from 'xstate';
import type { SessionView } from './decide';
import type { sessionMachine } from './session-machine';

/** What `decide()` needs from a session snapshot. */
export function sessionView(snapshot: SnapshotFrom<typeof sessionMachine>): SessionView {
  const signedIn = snapshot.matches('signedIn') || snapshot.matches('checking');
  return { signedIn, user: signedIn ? snapshot.context.user : null };
}
