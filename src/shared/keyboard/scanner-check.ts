/**
 * The text of the scanner check barcode (Setup › Scanner, on screen and printed on the bench's
 * Zebra): the characters whose keys differ between the layouts the station knows — a, q, w, y, z
 * and m in both cases, every digit, "-", "/" and "." — so one scan of it tells which layout the
 * scanner types for. Letters, digits and these signs are all a barcode needs, and they sit on the
 * same keys of a US, a UK and a Polish (programmers') keyboard, so those three read alike here.
 */
export const SCANNER_CHECK_TEXT = 'AQWYZM-aqwyzm/0123456789.';
