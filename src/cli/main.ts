#!/usr/bin/env node
/**
 * `fleetgate <command>` (npm run fleetgate -- <command>): the operator's commands, an entry
 * point like src/main.ts. The commands and their help are in commands.ts; this file reads the
 * arguments, answers help, and runs one command with its exit status:
 * 0 done, 1 failed (the reason on stderr), 2 not understood (the help on stderr), 3 see `status`.
 */
import { findCommand, USAGE, type Command, type Options } from './commands.js';

const HELP = new Set(['--help', '-h']);

class UsageError extends Error {
  constructor(
    message: string,
    readonly help: string,
  ) {
    super(message);
  }
}

function parseOptions(command: Command, args: string[]): { options: Options; operands: string[] } {
  const options: Options = {};
  const operands: string[] = [];
  const wanted = command.operands ?? [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const spec = command.options[arg];
    if (!spec && !arg.startsWith('-') && operands.length < wanted.length) {
      operands.push(arg);
      continue;
    }
    if (!spec)
      throw new UsageError(
        `fleetgate ${command.name}: ${arg.startsWith('-') ? 'unknown option' : 'unexpected argument'} "${arg}"`,
        command.help,
      );
    if (spec.value === undefined) options[arg] = true;
    else {
      const value = args[++i];
      if (value === undefined || value.startsWith('-'))
        throw new UsageError(
          `fleetgate ${command.name}: ${arg} needs a value (<${spec.value}>)`,
          command.help,
        );
      options[arg] = value;
    }
  }
  const missing = wanted.slice(operands.length);
  if (missing.length > 0)
    throw new UsageError(
      `fleetgate ${command.name}: ${missing.map((m) => `<${m}>`).join(' ')} is missing`,
      command.help,
    );
  return { options, operands };
}

const unknown = (name: string) => new UsageError(`fleetgate: unknown command "${name}"`, USAGE);

async function main(argv: string[]): Promise<number | 'running'> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('', USAGE);
  if (HELP.has(name) || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    if (topic === undefined || HELP.has(topic)) {
      process.stdout.write(USAGE);
      return 0;
    }
    const command = findCommand(topic);
    if (!command) throw unknown(topic);
    process.stdout.write(command.help);
    return 0;
  }
  const command = findCommand(name);
  if (!command) throw unknown(name);
  if (rest.some((a) => HELP.has(a))) {
    process.stdout.write(command.help);
    return 0;
  }
  const { options, operands } = parseOptions(command, rest);
  try {
    return await command.run(options, operands);
  } catch (err) {
    // A configuration error's message lists every problem, one a line.
    process.stderr.write(`fleetgate ${command.name}: ${(err as Error).message}\n`);
    return 1;
  }
}

try {
  const code = await main(process.argv.slice(2));
  // Exit at once: a finished command may leave idle keep-alive sockets that would hold the process.
  if (code !== 'running') process.exit(code);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(err.message ? `${err.message}\n\n${err.help}` : err.help);
  process.exit(2);
}
