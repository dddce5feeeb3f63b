import type { SettingsChange } from '../../../shared/contract/settings';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, UsageError, type CliCommand } from '../command';
import { json } from '../output';
import { openCalls } from '../station-calls';
import { runStoreSetting, storeOptions, storeUsage } from './settings-store';

const settingOptions = ['env', 'station-name', 'operator', 'api-url-test', 'api-url-live', 'webhook-host', 'webhook-port', 'webhook-body-limit'] as const;

const urlOrNull = (text: string | undefined) => (text === undefined ? undefined : text === 'none' ? null : text);

export const settingsCommand: CliCommand = {
  name: 'settings',
  summary: "Show or change the station's settings",
  usage: [
    'settings                      show every setting',
    'settings set [--env sandbox|test|live] [--station-name <text>] [--operator <name>]',
    '             [--api-url-test <url>|none] [--api-url-live <url>|none]   (a new address forgets that environment\'s API key)',
    '             [--webhook-host <address>] [--webhook-port <n>] [--webhook-body-limit <bytes>]',
    storeUsage,
  ].join('\n'),
  valueOptions: [...settingOptions, ...storeOptions],
  async run(context) {
    const [action, ...rest] = context.args.positionals;
    if ((action === 'get' || action === 'set' || action === 'test') && rest[0] === 'store') return runStoreSetting(context, action, rest.slice(1));
    if (rest.length > 0 || (action !== undefined && action !== 'set')) throw new UsageError('Use "settings" to show them or "settings set --<name> <value>" to change them.');
    const calls = await openCalls(context);
    if (action === undefined) {
      expectOnly(context.args, {});
      const settings = await calls.call('settings.get', {});
      if (settings === null) return exitCodes.failed;
      context.print(json(settings));
      return exitCodes.ok;
    }
    expectOnly(context.args, { options: settingOptions });
    const change: SettingsChange = {};
    // Each value as typed: the contract's schema checks it, and refuses what is not a setting's value.
    if (option(context.args, 'env') !== undefined) change.environment = option(context.args, 'env') as SettingsChange['environment'];
    if (option(context.args, 'station-name') !== undefined) change.stationName = option(context.args, 'station-name');
    if (option(context.args, 'operator') !== undefined) change.operator = option(context.args, 'operator');
    const apiBaseUrls = { test: urlOrNull(option(context.args, 'api-url-test')), live: urlOrNull(option(context.args, 'api-url-live')) };
    if (apiBaseUrls.test !== undefined || apiBaseUrls.live !== undefined) {
      change.apiBaseUrls = Object.fromEntries(Object.entries(apiBaseUrls).filter(([, value]) => value !== undefined));
    }
    const webhooks = { host: option(context.args, 'webhook-host'), port: numberOption(context.args, 'webhook-port'), bodyLimitBytes: numberOption(context.args, 'webhook-body-limit') };
    if (Object.values(webhooks).some((value) => value !== undefined)) {
      change.webhooks = Object.fromEntries(Object.entries(webhooks).filter(([, value]) => value !== undefined));
    }
    if (Object.keys(change).length === 0) throw new UsageError('Say which setting to change, for example settings set --env test.');
    const updated = await calls.call('settings.set', change);
    if (updated === null) return exitCodes.failed;
    context.print(json(updated));
    for (const environment of updated.forgottenKeys) {
      context.warn(`The ${environment} API key was removed from the OS keychain: it was entered for the old address. Enter it again with "keys set --env ${environment}".`);
    }
    return exitCodes.ok;
  },
};
