import { KeyedEnvironmentSchema, type KeyedEnvironment } from '../../../shared/contract/settings';
import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json } from '../output';
import { openCalls } from '../station-calls';
import { readSecret } from '../read-secret';

const environmentOf = (context: CliContext): KeyedEnvironment => {
  const text = option(context.args, 'env');
  const parsed = KeyedEnvironmentSchema.safeParse(text);
  if (!parsed.success) throw new UsageError('Say which environment with --env test or --env live.');
  return parsed.data;
};

/** The key: typed without echo at a terminal, or piped in; never from the command line. */
async function readKey(context: CliContext, environment: KeyedEnvironment): Promise<string> {
  return (await readSecret(context, { prompt: `API key for ${environment}`, name: 'an API key', maxBytes: 4096 })).trim();
}

export const keysCommand: CliCommand = {
  name: 'keys',
  summary: 'Store, check or remove the API key of an environment in the OS keychain',
  usage: [
    'keys status',
    'keys set --env test|live [--verify]   the key is read from standard input (typed hidden, or piped);',
    '                                      it is kept for the environment\'s current address (settings set --api-url-<env> first)',
    'keys verify --env test|live           checks the stored key with a harmless API call',
    'keys remove --env test|live',
  ].join('\n'),
  valueOptions: ['env', 'key'],
  async run(context) {
    const [action, ...rest] = context.args.positionals;
    if (rest.length > 0) throw new UsageError('Too many arguments.');
    if (context.args.options.has('key')) throw new UsageError('The key is never given on the command line; pipe it in or type it when asked.');

    if (action === 'status') {
      expectOnly(context.args, {});
      const status = await (await openCalls(context)).call('keys.status', {});
      if (status === null) return exitCodes.failed;
      context.print(json(status));
      return exitCodes.ok;
    }
    if (action === 'set') {
      expectOnly(context.args, { options: ['env'], flags: ['verify'] });
      const environment = environmentOf(context);
      const key = await readKey(context, environment);
      if (key === '') throw new UsageError('No key was given.');
      const result = await (await openCalls(context)).call('keys.set', { environment, key, verify: context.args.flags.has('verify') });
      if (!result) return exitCodes.failed;
      context.print(`The ${environment} key is stored in the OS keychain.${result.verification ? ` ${result.verification.message}` : ''}`);
      return exitCodes.ok;
    }
    if (action === 'verify') {
      expectOnly(context.args, { options: ['env'] });
      const verdict = await (await openCalls(context)).call('keys.verify', { environment: environmentOf(context) });
      if (!verdict) return exitCodes.failed;
      context.print(verdict.message);
      return verdict.outcome === 'accepted' ? exitCodes.ok : exitCodes.failed;
    }
    if (action === 'remove') {
      expectOnly(context.args, { options: ['env'] });
      const environment = environmentOf(context);
      const removed = await (await openCalls(context)).call('keys.remove', { environment });
      if (!removed) return exitCodes.failed;
      context.print(removed.removed ? `The ${environment} key was removed from the OS keychain.` : `No ${environment} key was stored.`);
      return exitCodes.ok;
    }
    throw new UsageError('Say what to do: keys status, keys set, keys verify or keys remove.');
  },
};
