/**
 * The width and height a JPEG declares in its start-of-frame segment, read from the segment headers
 * only (no decoding); undefined when the bytes are not a JPEG with one. The screencast needs a
 * frame's size to map a viewer's clicks on it onto the page.
 */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | undefined {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < jpeg.length) {
    if (jpeg[at] !== 0xff) return undefined;
    const marker = jpeg[at + 1]!;
    // Fill bytes and markers without a length (TEM, RSTn) carry no segment.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = jpeg.readUInt16BE(at + 2);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = jpeg.readUInt16BE(at + 5);
      const width = jpeg.readUInt16BE(at + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (marker === 0xda || length < 2) return undefined; // the image data starts: no frame header before it
    at += 2 + length;
  }
  return undefined;
}
