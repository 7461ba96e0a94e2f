/**
 * zh-CN messages. Spec texts are kept verbatim; `{name}` placeholders are filled by `format`.
 */
export const messages = {
  // spec §8 error catalogue
  operationSucceeded: '操作成功',
  operationFailed: '操作失败',
  loginSucceeded: '登录成功',
  loginFailed: '登录失败',
  loginTimeout: '登录超时 {message}',
  systemError: '系统错误 {message}',
  networkError: '网络异常，请检查网络连接',
  // spec §5
  noPermission: '你没有任何权限！即将退出登录',
  anonymous: '匿名用户',
  // spec §2
  notFound: '{path} has error {error}',
  notFoundError: 'Not Found',
  loading: 'Loading...',
  backHome: '返回首页',
  // server answers
  unauthorized: '请先登录',
  sessionRevoked: '登录状态已失效，请重新登录',
  forbidden: '没有权限执行此操作',
  apiNotFound: '接口不存在',
  invalidInput: '输入有误，请检查后重试',
  invalidJson: '请求内容不是有效的 JSON',
  jsonTooDeep: '请求内容嵌套过深（最多 {max} 层）',
  badUrl: '请求地址无法解析（含无效的 % 编码）',
  urlParamTooLong: '请求地址中的参数过长',
  nulCharacter: '内容不能包含空字符（U+0000）',
  numberOutOfRange: '数值超出范围',
  payloadTooLarge: '请求内容过大',
  tooManyRequests: '操作过于频繁，请 {seconds} 秒后再试',
  serverFault: '服务器开小差了，请稍后重试（请求编号 {requestId}）',
  wrongCaptcha: '验证码错误或已过期',
  wrongCredentials: '用户名或密码错误',
  accountDisabled: '账号已停用，请联系管理员',
  signedOut: '已退出登录',
  // login form
  username: '用户名',
  password: '密码',
  captchaCode: '验证码',
  captchaId: '验证码编号',
  signIn: '登录',
  signOut: '退出登录',
  refreshCaptcha: '看不清？点击图片换一张',
} as const;

export type MessageKey = keyof typeof messages;

/**
 * Generic form messages of spec §5 (antd's zh-CN validateMessages wording), used by forms and by
 * the zod schemas so server, UI and CLI say the same thing.
 */
export const formMessages = {
  required: '请输入{label}',
  whitespace: '{label}不能为空字符',
  enum: '{label}必须是其中一个[{enum}]',
  invalidType: '{label}不是一个有效的{type}',
  string: {
    len: '{label}须为{len}个字符',
    min: '{label}最少{min}个字符',
    max: '{label}最多{max}个字符',
    range: '{label}须在{min}-{max}字符之间',
  },
  number: {
    len: '{label}必须等于{len}',
    min: '{label}最小值为{min}',
    max: '{label}最大值为{max}',
    range: '{label}须在{min}-{max}之间',
  },
  array: {
    len: '须为{len}个{label}',
    min: '最少{min}个{label}',
    max: '最多{max}个{label}',
    range: '{label}数量须在{min}-{max}之间',
  },
  pattern: { mismatch: '{label}与模式不匹配{pattern}' },
} as const;

/** Fills `{name}` placeholders; unknown names stay as they are. */
export function format(template: string, values: Record<string, string | number | undefined> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = values[name];
    return v === undefined ? whole : String(v);
  });
}

export function t(key: MessageKey, values?: Record<string, string | number | undefined>): string {
  return format(messages[key], values);
}
