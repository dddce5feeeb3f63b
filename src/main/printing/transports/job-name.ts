/** A job name for OS queue lists: control characters become spaces, empty becomes "Label", long is cut. */
export function jobName(name: string | undefined, maxLength = 100): string {
  const clean = [...(name ?? '')]
    .map((char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f ? ' ' : char))
    .join('')
    .trim();
  return (clean.length > 0 ? clean : 'Label').slice(0, maxLength);
}
