/**
 * A look at the command line before commander parses it: which command runs and which resource
 * (and action) it names. The resource decides the command's flags — `wanxiang list orders`
 * takes `--status`, `wanxiang list stores` does not — so they are added before parsing, and
 * `--help` and "did you mean" know them.
 */

export interface Invocation {
  /** The first word that is not an option (`list`, `orders` …). */
  command: string | undefined;
  /** The command's positional arguments, in order (resource, id, action …). */
  operands: string[];
}

/** Options of the program and its commands that take no value. */
const FLAGS_WITHOUT_VALUE = new Set([
  '-h',
  '--help',
  '-V',
  '--version',
  '--json',
  '--with-total',
  '--yes',
  '-y',
  '--progress',
  '--no-progress',
  '--interactive',
  '--no-interactive',
]);

/**
 * Other options are taken to carry a value unless the next word looks like an option: field
 * flags come after the resource name (`wanxiang list orders --status paid`), as the help shows.
 */
export function scanInvocation(argv: readonly string[]): Invocation {
  let command: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      const rest = argv.slice(i + 1);
      if (command === undefined) [command] = rest.splice(0, 1);
      operands.push(...rest);
      break;
    }
    if (word.length > 1 && word.startsWith('-')) {
      const takesValue = !word.includes('=') && !FLAGS_WITHOUT_VALUE.has(word);
      const next = argv[i + 1];
      if (takesValue && next !== undefined && !(next.length > 1 && next.startsWith('-'))) i++;
      continue;
    }
    if (command === undefined) command = word;
    else operands.push(word);
  }
  return { command, operands };
}
