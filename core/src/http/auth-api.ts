/** Typed calls of API.md "Auth" — the actors the session machines are given by their hosts. */
import type {
  CaptchaAnswer,
  CurrentUser,
  PublicConfig,
  SignInRequest,
  SignInResult,
  SuccessEnvelope,
} from '../contract/envelope';
import type { HttpClient } from './client';

export interface Captcha {
  captchaId: string;
  /** `data:image/svg+xml;base64,…` */
  image: string;
}

export interface AuthApi {
  captcha(): Promise<Captcha>;
  signIn(request: SignInRequest): Promise<SignInResult>;
  currentUser(): Promise<CurrentUser>;
  signOut(): Promise<void>;
  publicConfig(): Promise<PublicConfig>;
}

export function createAuthApi(http: HttpClient): AuthApi {
  return {
    async captcha() {
      const answer = await http.request<CaptchaAnswer>('/api/captcha/request');
      return { captchaId: answer.captchaId, image: answer.data };
    },
    async signIn(request) {
      // The login machine reports 登录失败 itself, so the catalogue stays silent here.
      const answer = await http.request<SuccessEnvelope<SignInResult>>('/api/login/signin', {
        method: 'POST',
        body: request,
        kind: 'silent',
      });
      return answer.data;
    },
    async currentUser() {
      return (await http.request<SuccessEnvelope<CurrentUser>>('/api/user/current')).data;
    },
    async signOut() {
      await http.request('/api/login/signout', { kind: 'silent' });
    },
    async publicConfig() {
      return (await http.request<SuccessEnvelope<PublicConfig>>('/api/public/config')).data;
    },
  };
}
