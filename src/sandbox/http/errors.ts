/** Errors answered with the spec's error body `{ statusCode, message, error }`. */

export const statusTexts: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  425: 'Too Early',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(Array.isArray(detail) ? detail.join('; ') : detail);
    this.name = 'HttpError';
  }

  get body(): ErrorBody {
    return errorBody(this.status, this.detail);
  }
}

export function errorBody(status: number, message: string | string[]): ErrorBody {
  return { statusCode: status, message, error: statusTexts[status] ?? 'Error' };
}

/** 400 with the spec's list of messages. */
export const badRequest = (messages: string[]) => new HttpError(400, messages);
