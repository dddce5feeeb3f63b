/** One rendered page of a label, ready for an <img>: a data: URL, which the CSP allows for images. */
export interface PreviewPage {
  src: string;
  /** Pixels. */
  width: number;
  height: number;
}

export interface LabelSize {
  widthMm: number;
  heightMm: number;
  dpmm: number;
}
