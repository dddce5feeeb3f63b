import type { HandlersOf } from '../contract/dispatcher';
import type { EnvironmentSession } from '../environment-session';
import type { PickedFiles } from '../orders/picked-files';
import type { DeliveryClient } from '../api';
import type { Environment } from '../../shared/contract/app';
import { fileProblem } from '../spreadsheets/spreadsheet-file';
import { uploadLabelsPdf, uploadReport } from '../shipping/upload-report';
import type { UploadService, UploadSource } from '../shipping/upload-service';
import type { uploadCalls } from '../../shared/contract/upload';

export interface UploadHandlerDeps {
  uploads: UploadService;
  pickedFiles: PickedFiles;
  clientFor(environment: Environment): Promise<DeliveryClient>;
}


const reportName = (fileName: string, uploadId: string, suffix: string) => `${fileName.replace(/\.[^.]+$/, '')} ${uploadId} ${suffix}`;

export function uploadHandlers(deps: UploadHandlerDeps): HandlersOf<typeof uploadCalls> {
  const { uploads } = deps;
  const ready = async (session: EnvironmentSession) => {
    await session.ready();
    return session.environment;
  };
  return {
    'upload.prepare': async ({ source, locations }, { session }) => {
      let file: UploadSource;
      if (source.kind === 'picked') {
        const path = deps.pickedFiles.take(source.handle);
        if (path === null) throw fileProblem('choice-expired', '', 'That file choice is no longer valid (each choice is read once, within ten minutes). Choose the file again.');
        file = { kind: 'path', path };
      } else {
        file = { kind: 'bytes', fileName: source.fileName, bytes: Buffer.from(source.base64, 'base64') };
      }
      return uploads.prepare(session.environment, file, locations);
    },
    'upload.start': async ({ uploadId, printerId }, { session }) => uploads.start(await ready(session), uploadId, printerId),
    'upload.pause': ({ uploadId }, { session }) => uploads.pause(session.environment, uploadId),
    'upload.cancel': ({ uploadId }, { session }) => uploads.cancel(session.environment, uploadId),
    'upload.status': async ({ uploadId }, { session }) => {
      if (uploadId !== undefined) return uploads.status(session.environment, uploadId);
      return (await uploads.latest(session.environment, 1))[0] ?? null;
    },
    'upload.list': ({ limit }, { session }) => uploads.latest(session.environment, limit),
    'upload.problems': ({ uploadId }, { session }) => uploads.problems(session.environment, uploadId),
    'upload.report': async ({ uploadId }, { session }) => {
      const record = await uploads.record(session.environment, uploadId);
      const workbook = await uploadReport(record, await uploads.rows(session.environment, uploadId));
      return { fileName: `${reportName(record.fileName, uploadId, 'report')}.xlsx`, base64: workbook.toString('base64') };
    },
    'upload.labels': async ({ uploadId }, { session }) => {
      const environment = await ready(session);
      const record = await uploads.record(environment, uploadId);
      const { pdf, labels } = await uploadLabelsPdf(await deps.clientFor(environment), await uploads.rows(environment, uploadId));
      return { fileName: `${reportName(record.fileName, uploadId, 'labels')}.pdf`, base64: pdf.toString('base64'), labels };
    },
  };
}
