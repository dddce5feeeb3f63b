import { expectOnly } from '../args';
import { exitCodes, type CliCommand } from '../command';
import { json } from '../output';
import { openCalls } from '../station-calls';

export const infoCommand: CliCommand = {
  name: 'info',
  summary: "Show the station's version, environment and whether an API key is set",
  usage: 'info',
  async run(context) {
    expectOnly(context.args, {});
    const info = await (await openCalls(context)).call('app.info', {});
    if (!info) return exitCodes.failed;
    context.print(json(info));
    return exitCodes.ok;
  },
};
