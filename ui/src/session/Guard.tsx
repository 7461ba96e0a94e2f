/**
 * The one route guard: core's decide() on the current path and the session's view. Redirects,
 * waits, ejects (spec §5) or refuses; the rules live in core, this only renders the decision.
 */
import { type Decision, decide, sessionView } from '@wanxiang/core';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { rememberPublicPath } from '../platform/public-path';
import { Loading } from '../screens/Loading';
import { lazyScreen } from '../screens/lazy-screen';
import { useServices, useSession } from './services-context';

const Forbidden = lazyScreen(() => import('../screens/Forbidden'));
const SessionFailed = lazyScreen(() => import('../screens/SessionFailed'));

export function Guard({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const { session, storage } = useServices();
  const snapshot = useSession((s) => s);
  const decision: Decision = decide(pathname, sessionView(snapshot));
  const eject = decision.kind === 'eject';

  // A protected public page is never rendered for a signed-out visitor, so the public layout does
  // not get to remember it: remembered here, for /scan_login to come back to after the login.
  const returnHere = decision.kind === 'redirect' && decision.returnHere === true;
  useEffect(() => {
    if (returnHere) rememberPublicPath(storage, pathname + search);
  }, [returnHere, storage, pathname, search]);

  useEffect(() => {
    // Once: the machine shows the message and signs out; decide() then redirects to /admin/login.
    if (eject && !session.getSnapshot().matches({ signedIn: 'ejecting' })) session.send({ type: 'EJECT' });
  }, [eject, session]);

  switch (decision.kind) {
    case 'allow':
      return children;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'wait':
      if (snapshot.matches({ signedIn: 'userFailed' })) {
        return (
          <Suspense fallback={<Loading />}>
            <SessionFailed />
          </Suspense>
        );
      }
      return <Loading />;
    case 'eject':
      return <Loading />;
    case 'forbidden':
      return (
        <Suspense fallback={<Loading />}>
          <Forbidden />
        </Suspense>
      );
  }
}
