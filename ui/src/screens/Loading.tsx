import { t } from '@wanxiang/core';

/** The spec's plain heading while a lazily delivered screen (or the session) loads. */
export function Loading() {
  return <h1 className="wx-loading">{t('loading')}</h1>;
}
