/**
 * The admin API as a test's setup uses it: rows a screen needs are created over HTTP with the
 * admin's token (the demo seeder will later provide them), so the browser part tests the screen.
 */
export interface AdminApi {
  create<T = Record<string, unknown>>(
    resource: string,
    body: Record<string, unknown>,
  ): Promise<T & { id: number }>;
  list(resource: string, query?: Record<string, string>): Promise<{ id: number; [field: string]: unknown }[]>;
  action(resource: string, id: number, action: string, body?: Record<string, unknown>): Promise<void>;
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  message?: string;
}

export function adminApi(baseUrl: string, token: string): AdminApi {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as Envelope<T>;
    if (!res.ok || !answer.success)
      throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(answer)}`);
    return answer.data as T;
  };
  return {
    create: (resource, body) => call('POST', `/api/admin/${resource}`, body),
    async list(resource, query = {}) {
      const search = new URLSearchParams(query).toString();
      const data = await call<{ results: { id: number }[] }>(
        'GET',
        `/api/admin/${resource}${search ? `?${search}` : ''}`,
      );
      return data.results;
    },
    async action(resource, id, action, body = {}) {
      await call('POST', `/api/admin/${resource}/${id}/${action}`, body);
    },
  };
}
