/** Business constants of spec §9. */
export const HTTP_TIMEOUT_MS = 10_000;
export const DEFAULT_PAGE_SIZE = 20;
export const FIRST_PAGE = 1;
export const MAX_PAGE_SIZE = 500;
export const NOTIFICATION_DURATION_S = 4.5;
export const MODAL_WIDTH = 520;
export const CONFIRM_WIDTH = 416;
/** localStorage key of the bearer token in the browser. */
export const TOKEN_STORAGE_KEY = 'token';
export const LOCALE = 'zh-CN';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';
export const PAGINATION_LABEL = '条/页';
export const COPYRIGHT_YEAR = 2024;
export const DEFAULT_PRODUCT_NAME = '万象';
/** Captchas are single use and live this long (QUALITY.md). */
export const CAPTCHA_TTL_MS = 5 * 60_000;
/** Brute-force limits on sign-in (QUALITY.md). */
export const SIGNIN_LIMIT = { perUsername: 5, perAddress: 20, windowMs: 15 * 60_000 } as const;
