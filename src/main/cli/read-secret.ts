import { UsageError, type CliContext } from './command';

/**
 * A secret read from standard input: typed without echo at a terminal, or piped in. Never from the
 * command line, where it would land in the shell's history and the process list. Returned as
 * typed or as piped (the caller trims what its secret cannot hold).
 */
export async function readSecret(context: CliContext, secret: { prompt: string; name: string; maxBytes: number }): Promise<string> {
  const { stdin, stderr } = context.io;
  if (stdin.isTTY && stdin.setRawMode) {
    stderr.write(`${secret.prompt} (typing is hidden, Enter to finish): `);
    stdin.setRawMode(true);
    stdin.resume();
    try {
      return await new Promise<string>((resolve, reject) => {
        let typed = '';
        const onData = (chunk: Buffer | string) => {
          for (const character of chunk.toString()) {
            if (character === '\r' || character === '\n') {
              stdin.off('data', onData);
              stderr.write('\n');
              resolve(typed);
              return;
            }
            if (character === '\u0003') {
              stdin.off('data', onData);
              reject(new UsageError('Cancelled.'));
              return;
            }
            if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
            else typed += character;
          }
        };
        stdin.on('data', onData);
      });
    } finally {
      stdin.setRawMode(false);
      stdin.pause();
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > secret.maxBytes) throw new UsageError(`Standard input holds more than ${secret.name}.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
