import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/errors';
import { createCaptchaFile, decodeDataUri } from '../src/io/captcha-file';
import { translateCommanderError } from '../src/io/help-zh';
import { createPrompter } from '../src/io/prompter';
import { displayWidth, formatBlock } from '../src/io/text';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>';

describe('captcha image', () => {
  it('decodes base64 and percent-encoded data URIs', () => {
    const base64 = `data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}`;
    expect(decodeDataUri(base64).toString('utf8')).toBe(SVG);
    expect(
      decodeDataUri(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`).toString('utf8'),
    ).toBe(SVG);
    expect(() => decodeDataUri('https://example.com/captcha.svg')).toThrow();
  });

  it('is written to one temporary file, replaced per captcha and removed at the end', () => {
    const file = createCaptchaFile();
    const first = file.show(`data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}`);
    expect(first).toMatch(/captcha\.svg$/);
    expect(readFileSync(first, 'utf8')).toBe(SVG);
    const second = file.show(`data:image/svg+xml,${encodeURIComponent('<svg/>')}`);
    expect(second).toBe(first);
    expect(readFileSync(second, 'utf8')).toBe('<svg/>');
    file.remove();
    expect(existsSync(first)).toBe(false);
  });
});

describe('prompter', () => {
  function streams() {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => {
      written += chunk.toString('utf8');
    });
    return { input, output, written: () => written };
  }

  it('answers questions from lines piped before they were asked, without echoing the hidden one', async () => {
    const { input, output, written } = streams();
    input.end('  admin  \ns3cret pass\n');
    const prompter = createPrompter(input, output);
    expect(await prompter.ask('用户名：')).toBe('admin');
    expect(await prompter.askHidden('密码：')).toBe('s3cret pass');
    prompter.close();
    expect(written()).toBe('用户名：\n密码：\n');
  });

  it('fails with a Chinese message when the input ends first', async () => {
    const { input, output } = streams();
    input.end('');
    const prompter = createPrompter(input, output);
    await expect(prompter.ask('验证码：')).rejects.toThrow(CliError);
    await expect(prompter.ask('验证码：')).rejects.toThrow('标准输入已结束');
  });
});

describe('text layout', () => {
  it('counts Chinese characters as two columns', () => {
    expect(displayWidth('用户名')).toBe(6);
    expect(displayWidth('admin（超级管理员）')).toBe(5 + 2 * 7);
  });

  it('aligns values after labels of mixed widths', () => {
    expect(
      formatBlock([
        ['服务', 'http://x'],
        ['登录有效期至', '2030-01-01 00:00'],
        ['ID', '1'],
      ]),
    ).toBe(['服务          http://x', '登录有效期至  2030-01-01 00:00', 'ID            1', ''].join('\n'));
  });
});

describe('commander messages', () => {
  it('are translated, keeping the suggestion', () => {
    expect(translateCommanderError("error: unknown option '--jsno'\n(Did you mean --json?)")).toBe(
      '✗ 未知选项 --jsno（是不是 --json？）\n',
    );
    expect(translateCommanderError("error: option '--api-url <url>' argument missing")).toBe(
      '✗ 选项 --api-url <url> 缺少值\n',
    );
    expect(translateCommanderError('error: something new')).toBe('✗ something new\n');
  });
});
