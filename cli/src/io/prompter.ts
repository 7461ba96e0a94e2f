/**
 * Questions on stderr, answers from stdin, with node:readline/promises. One readline for the
 * whole command: a second one on the same piped stdin would lose the lines the first had
 * already buffered. Answers are read through the async iterator, which queues lines that
 * arrive before the question is asked (a script may pipe every answer at once).
 */
import { createInterface } from 'node:readline/promises';
import { type Readable, Writable } from 'node:stream';
import { CliError, ExitCode } from '../errors';

export interface Prompter {
  ask(question: string): Promise<string>;
  /** Nothing typed is echoed (the password). */
  askHidden(question: string): Promise<string>;
  /** A line of guidance between questions. */
  say(line: string): void;
  close(): void;
}

type Input = Readable & { isTTY?: boolean };
type Output = Writable & { isTTY?: boolean; columns?: number };

export function createPrompter(input: Input, output: Output): Prompter {
  // readline echoes what is typed through its output; muting that stream hides the password.
  let muted = false;
  const echo = new Writable({
    write(chunk, encoding, done) {
      if (!muted) output.write(chunk, encoding);
      done();
    },
  });
  // readline wraps long lines at the terminal's width.
  Object.defineProperty(echo, 'columns', { get: () => output.columns });

  // Terminal mode puts a TTY in raw mode, so the kernel does not echo the password either.
  const rl = createInterface({ input, output: echo, terminal: Boolean(input.isTTY) });
  const lines = rl[Symbol.asyncIterator]();
  let interrupted = false;
  rl.on('SIGINT', () => {
    interrupted = true;
    output.write('\n');
    rl.close();
  });

  async function nextLine(): Promise<string> {
    const { value, done } = await lines.next();
    if (done) {
      throw interrupted
        ? new CliError('已取消', { exitCode: ExitCode.cancelled })
        : new CliError('标准输入已结束，未能读到回答');
    }
    return String(value);
  }

  return {
    async ask(question) {
      // Through readline's own prompt, so redrawing the line (backspace) keeps the question.
      rl.setPrompt(question);
      rl.prompt();
      const answer = (await nextLine()).trim();
      // A terminal echoed the answer and its Enter; piped answers are not echoed at all.
      if (!input.isTTY) output.write('\n');
      return answer;
    },
    async askHidden(question) {
      rl.setPrompt(question);
      rl.prompt();
      muted = true;
      try {
        return await nextLine();
      } finally {
        muted = false;
        // Nothing was echoed, not even the Enter key: end the question's line (Ctrl+C did).
        if (!interrupted) output.write('\n');
      }
    },
    say(line) {
      output.write(`${line}\n`);
    },
    close() {
      rl.close();
    },
  };
}
