/**
 * One place that turns every failure into the envelope of API.md: domain errors as they are,
 * schema violations as 422 with per-field messages, malformed JSON as 422, an oversized body
 * as 413, and anything unexpected as a 500 that carries the request id and never a stack
 * trace (the stack goes to the log).
 */
import { ErrorCode, type FailureEnvelope, t } from '@wanxiang/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, notFound } from './envelope.js';
import { fieldMessages, type SchemaError } from './validation-messages.js';

function send(reply: FastifyReply, status: number, body: FailureEnvelope) {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

function fromFrameworkError(error: FastifyError, request: FastifyRequest): ApiError | null {
  if (error.validation) {
    const context = (error.validationContext ?? 'body') as 'body' | 'querystring' | 'params' | 'headers';
    const schema = request.routeOptions.schema?.[context];
    return new ApiError({
      status: 422,
      errorCode: ErrorCode.invalidInput,
      message: t('invalidInput'),
      data: { fields: fieldMessages(error.validation as SchemaError[], schema) },
    });
  }
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return new ApiError({ status: 413, errorCode: ErrorCode.payloadTooLarge, message: t('payloadTooLarge') });
  }
  // JSON.parse failures reach us as a SyntaxError with status 400; an empty JSON body has its own code.
  if (
    (status === 400 && error instanceof SyntaxError) ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
  ) {
    return new ApiError({ status: 422, errorCode: ErrorCode.invalidInput, message: t('invalidJson') });
  }
  // PostgreSQL refusing a number outside its column's range (an id of 2^31 where ids are
  // INTEGER): no row can have it, and SQLite takes any 64-bit integer — the caller's input, not
  // a fault. SQLSTATE 22003 numeric_value_out_of_range.
  if ((error as { code?: unknown }).code === '22003') {
    return new ApiError({ status: 422, errorCode: ErrorCode.invalidInput, message: t('numberOutOfRange') });
  }
  if (status === 404) return notFound();
  if (status >= 400 && status < 500) {
    // Other client errors the framework raises (unsupported media type, bad content length, …).
    return new ApiError({ status, errorCode: status, message: t('invalidInput') });
  }
  return null;
}

/**
 * Fastify's `frameworkErrors`: failures of the router itself, before any route or hook runs — a
 * path with invalid percent-encoding (`/api/x/%zz`, bytes that are not UTF-8) or a path
 * parameter over the router's length limit. Without this they answered Fastify's own English
 * JSON instead of the envelope.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const status = tooLong ? 414 : 400;
  return send(reply, status, {
    success: false,
    errorCode: status,
    message: t(tooLong ? 'urlParamTooLong' : 'badUrl'),
  });
}

/** The JSON 404 for an unknown /api path (also used by the site's not-found handler). */
export function sendApiNotFound(_request: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, notFound().toEnvelope());
}

export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const known = error instanceof ApiError ? error : fromFrameworkError(error, request);
      if (known) {
        if (known.status >= 500) request.log.error({ err: error }, 'request failed');
        reply.headers(known.headers);
        return send(reply, known.status, known.toEnvelope());
      }
      request.log.error({ err: error }, 'unexpected error');
      return send(reply, 500, {
        success: false,
        errorCode: ErrorCode.serverError,
        message: t('serverFault', { requestId: request.id }),
        data: { requestId: request.id },
      });
    });
  },
  { name: 'wanxiang-errors' },
);
