/**
 * API keys (DOMAIN.md api-market/user-api-key): created for a user with a name and scopes, the
 * secret made before the transaction (`prepare`) so that it reaches the caller once — after the
 * commit (`answer` / `afterCommit`) — and never the audit entry, which sees only the prefix and
 * the stored hash (write-only, masked). Rotation replaces the hash and prefix of an active key in
 * one conditional UPDATE: the old secret stops matching at once, the id, name and scopes stay.
 * Revocation is core's `revoke` transition.
 */
import {
  API_KEY_PREFIX,
  apiKeyPrefix,
  f,
  getResource,
  MAX_API_KEYS_PER_USER,
  newApiKey,
  validateInput,
} from '@wanxiang/core';
import { sql } from 'kysely';
import { conflict, invalidInput } from '../../http/envelope.js';
import { appendRow } from '../../resources/actions.js';
import type { ActionHandlerSpec, CreateHandler, WriteContext } from '../../resources/extensions.js';
import { nextUpdatedAt } from '../../resources/row-change.js';
import { MASK, modelOf, toWireRow, type WireRow } from '../../resources/storage.js';
import { hashApiKey } from './key-hash.js';

const apiKeys = getResource('apiKeys');

/** What `prepare` hands the transaction and the answer: the new secret. */
interface NewSecret {
  key: string;
}

const makeSecret = (): NewSecret => ({ key: newApiKey() });

/** Added to the answer of create and rotate: the only time the key is sent. */
export const KEY_ANSWER_PROPERTIES = {
  key: {
    type: 'string',
    description: `完整的 API Key（${API_KEY_PREFIX} 开头），只在创建或轮换时返回这一次；服务端只保存其摘要`,
  },
} as const;

const createFields = {
  userId: f.relation('用户', 'users', { required: true }),
  name: apiKeys.fields.name as NonNullable<(typeof apiKeys.fields)['name']>,
  scopes: apiKeys.fields.scopes as NonNullable<(typeof apiKeys.fields)['scopes']>,
};

export const KEY_CREATE_BODY_SCHEMA = {
  type: 'object',
  required: ['userId', 'name'],
  properties: {
    userId: { type: 'integer', description: '所属用户' },
    name: { type: 'string', maxLength: 50, description: '名称，便于区分用途' },
    scopes: {
      type: 'array',
      items: { type: 'integer' },
      description: '可调用的 API（marketApis 的 id）；不填或为空则可调用全部 API',
    },
  },
} as const;

/** The body → `{userId, name, scopes}`; 422 per field in the form's words; users and APIs must exist. */
async function readCreateBody(ctx: WriteContext, body: unknown) {
  const raw = body && typeof body === 'object' ? { ...(body as Record<string, unknown>) } : {};
  if (typeof raw.name === 'string') raw.name = raw.name.trim();
  const checked = validateInput(createFields, raw);
  if (!checked.ok) throw invalidInput(checked.fields);
  const userId = Number(checked.value.userId);
  const scopes = [...new Set(((checked.value.scopes as number[] | null | undefined) ?? []).map(Number))];
  const user = await ctx.trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .$if(ctx.dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!user) throw invalidInput({ userId: '所选的用户不存在' });
  if (scopes.length > 0) {
    const apis = modelOf(getResource('marketApis')).table;
    const found = await ctx.trx.selectFrom(apis).select('id').where('id', 'in', scopes).execute();
    if (found.length < scopes.length) throw invalidInput({ scopes: '所选的 API 不存在' });
  }
  return { userId, name: String(checked.value.name), scopes };
}

export const createKey: CreateHandler = {
  bodySchema: KEY_CREATE_BODY_SCHEMA,
  description: `为用户创建 API Key：响应中的 key 只返回这一次（服务端只存摘要），之后只显示前缀。每个用户最多 ${MAX_API_KEYS_PER_USER} 个有效 Key（409）。`,
  answerProperties: KEY_ANSWER_PROPERTIES,
  prepare: makeSecret,
  async run(ctx) {
    const { key } = ctx.prepared as NewSecret;
    const { userId, name, scopes } = await readCreateBody(ctx, ctx.body);
    // PostgreSQL: the user's row is locked above, so two creates at once count one after the other.
    const table = modelOf(apiKeys).table;
    const held = await ctx.trx
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (Number(held?.n ?? 0) >= MAX_API_KEYS_PER_USER)
      throw conflict(`每个用户最多 ${MAX_API_KEYS_PER_USER} 个有效 Key，请先吊销不用的 Key`);
    return appendRow(
      ctx.trx,
      apiKeys,
      { userId, name, scopes, prefix: apiKeyPrefix(key), secretHash: hashApiKey(key), status: 'active' },
      ctx.now,
    );
  },
  answer: (row, prepared) => ({ ...row, key: (prepared as NewSecret).key }),
};

export const rotateKey: ActionHandlerSpec = {
  answerProperties: KEY_ANSWER_PROPERTIES,
  prepare: async () => makeSecret(),
  async run(ctx) {
    const { key } = ctx.prepared as NewSecret;
    const model = modelOf(apiKeys);
    const updated = await ctx.trx
      .updateTable(model.table)
      .set({
        secret_hash: hashApiKey(key),
        prefix: apiKeyPrefix(key),
        rotated_at: ctx.now,
        updated_at: nextUpdatedAt(ctx.now),
      })
      .where('id', '=', ctx.id)
      .where('status', '=', 'active')
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw conflict('Key 已吊销，不能轮换');
    // The hash is masked on both sides; the entry still says the secret changed.
    ctx.note('secretHash', MASK, MASK);
    return toWireRow(model, updated);
  },
  refusal: () => conflict('Key 已吊销，不能轮换'),
  afterCommit: async (ctx, answer) => ({ ...answer, key: (ctx.prepared as NewSecret).key }),
  message: () => '已轮换：新 Key 只显示这一次，旧 Key 已失效',
};

/** A user's keys for `/api/me/apiKeys`, newest first (the wire rows: prefix, never the hash). */
export async function keysOf(db: WriteContext['db'], userId: number): Promise<WireRow[]> {
  const model = modelOf(apiKeys);
  const rows = await db
    .selectFrom(model.table)
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => toWireRow(model, row));
}
