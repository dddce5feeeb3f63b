import type { AppInfo } from '../../../shared/contract/app';
import { expectOnly } from '../args';
import { exitCodes, type CliCommand } from '../command';
import { valueOf, json } from '../output';

export const infoCommand: CliCommand = {
  name: 'info',
  summary: "Show the station's version, environment and whether an API key is set",
  usage: 'info',
  async run(context) {
    expectOnly(context.args, {});
    const station = await context.openStation();
    const info = valueOf<AppInfo>(context, await station.dispatcher.dispatch('app.info', {}, { host: 'web' }));
    if (!info) return exitCodes.failed;
    context.print(json(info));
    return exitCodes.ok;
  },
};
