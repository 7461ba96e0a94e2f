/**
 * The password login form, driven by core's loginMachine: a captcha per attempt, refreshed on
 * click and after every failure; the machine's notices (登录成功, 登录失败 + code + message) go to
 * the notifier. The host page decides what a successful sign-in leads to.
 *
 * Three required fields do not need antd's Form (its form engine alone is 20 KB gzip, and
 * /admin/login must paint within 220 KB): the rules are checked here with core's form messages,
 * and shown the way antd's Form shows them.
 */
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import {
  format,
  formMessages,
  type LoginOutput,
  loginMachine,
  messages,
  type SignInRequest,
  type SignInResult,
} from '@wanxiang/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Button } from 'antd';
// The plain Input and Password, not antd's Input with TextArea, OTP and Search attached.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { useServices } from '../session/services-context';

type Field = 'username' | 'password' | 'captchaCode';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

const FIELDS: readonly Field[] = ['username', 'password', 'captchaCode'];
const LABELS: Record<Field, string> = {
  username: messages.username,
  password: messages.password,
  captchaCode: messages.captchaCode,
};

/** Spec §5: all three are required; a name or code of blanks is no name or code. */
function check(field: Field, value: string): string | undefined {
  if (value === '') return format(formMessages.required, { label: LABELS[field] });
  if (field !== 'password' && value.trim() === '')
    return format(formMessages.whitespace, { label: LABELS[field] });
  return undefined;
}

function FieldRow({ id, error, children }: { id: string; error: string | undefined; children: ReactNode }) {
  return (
    <div className={error ? 'wx-field wx-field-invalid' : 'wx-field'}>
      {children}
      <div className="wx-field-error" id={id} role="alert">
        {error}
      </div>
    </div>
  );
}

export function LoginForm({ onSignedIn }: { onSignedIn: (result: LoginOutput) => void }) {
  const { auth, notices } = useServices();
  const [machine] = useState(() =>
    loginMachine.provide({
      actors: {
        fetchCaptcha: fromPromise(() => auth.captcha()),
        signIn: fromPromise<SignInResult, SignInRequest>(({ input }) => auth.signIn(input)),
      },
    }),
  );
  const login = useActorRef(machine);
  const state = useSelector(login, (s) => (s.status === 'done' ? 'succeeded' : (s.value as string)));
  const captchaImage = useSelector(login, (s) => s.context.captchaImage);
  const [values, setValues] = useState<Values>({ username: '', password: '', captchaCode: '' });
  const [errors, setErrors] = useState<Errors>({});
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;
  const ids = useId();

  useEffect(() => {
    const notify = login.on('notify', ({ level, message }) => notices.notify(level, message));
    const done = login.subscribe((snapshot) => {
      if (snapshot.status === 'done') signedIn.current(snapshot.output);
    });
    return () => {
      notify.unsubscribe();
      done.unsubscribe();
    };
  }, [login, notices]);

  // A new captcha image means a new attempt: the old answer cannot be right any more.
  useEffect(() => {
    if (captchaImage) setValues((v) => (v.captchaCode === '' ? v : { ...v, captchaCode: '' }));
  }, [captchaImage]);

  const change = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    // Once a field shows an error, it follows the typing.
    setErrors((e) => (field in e ? { ...e, [field]: check(field, value) } : e));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    for (const field of FIELDS) found[field] = check(field, values[field]);
    setErrors(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      document.getElementById(`${ids}-${first}`)?.focus();
      return;
    }
    login.send({ type: 'SUBMIT', ...values });
  };

  const inputProps = (field: Field) => ({
    id: `${ids}-${field}`,
    name: field,
    value: values[field],
    onChange: change(field),
    placeholder: LABELS[field],
    'aria-label': LABELS[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': `${ids}-${field}-error`,
    status: errors[field] ? ('error' as const) : undefined,
    size: 'large' as const,
  });

  return (
    <form className="wx-login-form" name="login" noValidate onSubmit={submit}>
      <FieldRow id={`${ids}-username-error`} error={errors.username}>
        <Input {...inputProps('username')} prefix={<UserOutlined />} autoComplete="username" />
      </FieldRow>
      <FieldRow id={`${ids}-password-error`} error={errors.password}>
        <Password {...inputProps('password')} prefix={<LockOutlined />} autoComplete="current-password" />
      </FieldRow>
      <FieldRow id={`${ids}-captchaCode-error`} error={errors.captchaCode}>
        <div className="wx-captcha-row">
          <Input
            {...inputProps('captchaCode')}
            prefix={<SafetyOutlined />}
            autoComplete="off"
            maxLength={8}
            className="wx-captcha-input"
          />
          <button
            type="button"
            className="wx-captcha"
            onClick={() => login.send({ type: 'REFRESH_CAPTCHA' })}
            title={messages.refreshCaptcha}
            aria-label={messages.refreshCaptcha}
            disabled={state === 'loadingCaptcha' || state === 'submitting'}
          >
            {state === 'captchaFailed' ? (
              <span className="wx-captcha-failed">加载失败，点击重试</span>
            ) : captchaImage ? (
              <img src={captchaImage} alt={messages.captchaCode} />
            ) : (
              <span className="wx-captcha-loading">加载中…</span>
            )}
          </button>
        </div>
      </FieldRow>
      <Button
        type="primary"
        htmlType="submit"
        size="large"
        block
        className="wx-login-submit"
        loading={state === 'submitting'}
        disabled={state !== 'editing' && state !== 'submitting'}
      >
        {messages.signIn}
      </Button>
    </form>
  );
}
