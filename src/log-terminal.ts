/**
 * Log lines for a person at a terminal: pino-pretty's readable lines instead of JSON, held back
 * until the start banner is out so the banner is the first thing they see. A warning or worse
 * is let through at once, after what was held before it. Used when stdout is a TTY (or
 * LOG_FORMAT=pretty); machines reading stdout keep the JSON lines.
 */
import { Writable } from 'node:stream';

const SERIOUS = /"level":\s*(?:[4-9]\d|\d{3,})\b/;

export class HeldUntilReady extends Writable {
  #held: string[] | undefined = [];

  constructor(private readonly out: NodeJS.WritableStream) {
    super({ decodeStrings: false });
    // Whatever is still held when the process ends is written, never lost.
    process.once('exit', () => this.release());
  }

  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (err?: Error | null) => void,
  ): void {
    const text = String(chunk);
    if (this.#held && !SERIOUS.test(text)) this.#held.push(text);
    else {
      this.release();
      this.out.write(text);
    }
    done();
  }

  /** Writes what was held and passes every later line straight through. */
  release(): void {
    const held = this.#held;
    this.#held = undefined;
    for (const line of held ?? []) this.out.write(line);
  }
}

/** A held, pretty terminal output; pino-pretty is loaded only here, so JSON runs never pay for it. */
export async function prettyTerminal(): Promise<HeldUntilReady> {
  const { default: pretty } = await import('pino-pretty');
  const out = pretty({
    colorize: process.stdout.isTTY === true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service',
    singleLine: true,
  });
  return new HeldUntilReady(out);
}
