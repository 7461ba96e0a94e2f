/**
 * JSON-schema pieces for the envelope, used in route `response` schemas. They document the
 * answers in the OpenAPI document; serialization itself is plain JSON.stringify (see app.ts),
 * so a schema can never silently drop a field of an answer.
 */

export const failureEnvelopeSchema = {
  type: 'object',
  required: ['success', 'errorCode', 'message'],
  properties: {
    success: { type: 'boolean', const: false },
    errorCode: { type: 'integer' },
    message: { type: 'string' },
    data: {
      type: 'object',
      properties: {
        fields: { type: 'object', additionalProperties: { type: 'string' } },
        requestId: { type: 'string' },
        retryAfterS: { type: 'integer' },
      },
    },
  },
} as const;

export function successEnvelopeSchema<D extends object>(data: D, description?: string) {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    required: ['success', 'data'],
    properties: {
      success: { type: 'boolean', const: true },
      data,
      message: { type: 'string' },
    },
  } as const;
}

/** The failures any authenticated route may answer, for its `response` schema. */
export const authFailureResponses = {
  401: { description: '未登录、令牌未知、已过期或已退出', ...failureEnvelopeSchema },
  403: { description: '没有权限', ...failureEnvelopeSchema },
} as const;

export const bearerSecurity = [{ bearerAuth: [] }];
