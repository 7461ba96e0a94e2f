/** A local HTTP server for tests that make the server call out (third-party 测试, monitors). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalHttp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export async function startLocalHttp(handler: http.RequestListener): Promise<LocalHttp> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
