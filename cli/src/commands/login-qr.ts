/**
 * `wanxiang login` by scan: core's qrLoginMachine with the CLI's ports. The QR code of the confirm
 * URL and the URL itself go to stderr; a signed-in browser (a phone's, or any other) opens it and
 * confirms. Status comes over `/ws` where the runtime has a WebSocket (Node 22+), else by polling.
 *
 * Unlike the web screen, an expired ticket is not replaced: an unattended terminal should not
 * keep asking the server for codes, so the command ends (exit 1) and says to run it again.
 */
import { type QrLoginOutput, qrLoginActors, qrLoginMachine } from '@wanxiang/core';
import QRCode from 'qrcode';
import { createActor } from 'xstate';
import { CliError, ExitCode } from '../errors';
import type { Runtime, Server } from '../runtime';

type Socketless = { WebSocket?: new (url: string) => unknown };

export async function scanLogin(runtime: Runtime, server: Server): Promise<QrLoginOutput> {
  const { stderr } = runtime.io;
  // Node 22 has a global WebSocket; on Node 20 the CLI polls.
  const { WebSocket } = globalThis as Socketless;
  const actor = createActor(
    qrLoginMachine.provide({
      actors: qrLoginActors({ http: server.http, origin: server.apiUrl, WebSocket }),
      guards: { mayAutoRefresh: () => false },
    }),
    { input: {} },
  );

  let shownTicket: string | null = null;
  let saidScanned = false;
  return new Promise<QrLoginOutput>((resolve, reject) => {
    const interrupt = () => finish(new CliError('已取消登录', { exitCode: ExitCode.cancelled }));
    const finish = (outcome: QrLoginOutput | CliError) => {
      process.removeListener('SIGINT', interrupt);
      subscription.unsubscribe();
      actor.stop();
      if (outcome instanceof CliError) reject(outcome);
      else resolve(outcome);
    };
    process.once('SIGINT', interrupt);

    const subscription = actor.subscribe((snapshot) => {
      const ticket = snapshot.context.ticket;
      if (snapshot.matches('waiting') && ticket && ticket.ticket !== shownTicket) {
        shownTicket = ticket.ticket;
        const ms = snapshot.context.remainingMs;
        const life =
          ms >= 60_000 ? `${Math.round(ms / 60_000)} 分钟` : `${Math.max(1, Math.ceil(ms / 1000))} 秒`;
        void QRCode.toString(ticket.confirmUrl, { type: 'terminal', small: true }).then((art) => {
          // One write: the code, the link and what to do arrive together (a reader of the
          // stream, a script or a test, never sees the link without the instructions).
          stderr.write(
            `扫码登录 ${server.apiUrl}\n\n${art}\n` +
              `用已登录万象的手机扫描上面的二维码，或在已登录的浏览器中打开：\n  ${ticket.confirmUrl}\n` +
              `然后点击「确认登录」。二维码 ${life}内有效，按 Ctrl-C 取消。\n`,
          );
        });
      }
      if (snapshot.matches({ waiting: { progress: 'scanned' } }) && !saidScanned) {
        saidScanned = true;
        stderr.write('已扫码，请在浏览器中确认…\n');
      }
      if (snapshot.status === 'done') finish(snapshot.output);
      else if (snapshot.matches('expired')) {
        finish(new CliError('二维码已过期', { hint: '请重新运行 `wanxiang login` 获取新的二维码' }));
      } else if (snapshot.matches('cancelled')) {
        finish(new CliError('已在浏览器中取消本次登录'));
      } else if (snapshot.matches('failed')) {
        const failure = snapshot.context.failure;
        finish(new CliError(`扫码登录失败：${failure?.message ?? '未知错误'}`));
      }
    });
    actor.on('notify', ({ level, message }) => runtime.notifier.notify(level, message));
    actor.start();
  });
}
