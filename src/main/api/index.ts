/** The Delivery API client's public surface; everything else in this folder is internal. */
export {
  createDeliveryClient,
  type AddressCheckInput,
  type BundleLabel,
  type CreateOrderInput,
  type DeliveryClient,
  type DeliveryClientOptions,
  type DeliveryLogger,
  type LabelRequest,
  type LocationId,
  type LogFields,
  type OrderLabel,
  type PickupPointSearchInput,
  type PostalCodeCheckInput,
} from './delivery-client';
export { DeliveryApiError, type DeliveryApiErrorFacts } from './delivery-api-error';
export { checkLabelDocument, checkPdfDocument, checkZplDocument, checkZplText, decodeStrictBase64 } from './label-document';
export type { DocumentCheck, LabelDocument, PdfDocument, ZplDocument } from './label-document';
export {
  defaultConcurrency,
  defaultLabelWaitPolicy,
  defaultMaxResponseBytes,
  defaultRetryPolicy,
  defaultTimeouts,
  type LabelWaitPolicy,
  type RetryPolicy,
  type Timeouts,
} from './retry-policy';
export { createSemaphore, type Semaphore } from './semaphore';
