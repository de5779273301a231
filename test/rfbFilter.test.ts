import { describe, expect, it } from 'vitest';
import { RfbProtocolError, RfbViewOnlyFilter } from '../server/sessions/display/rfbFilter.ts';

const version = Buffer.from('RFB 003.008\n', 'latin1');
const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

const setPixelFormat = Buffer.concat([
  Buffer.from([0, 0, 0, 0, 32, 24, 0, 1]),
  u16(255),
  u16(255),
  u16(255),
  Buffer.from([16, 8, 0, 0, 0, 0]),
]);
const setEncodings = (...encs: number[]) => Buffer.concat([Buffer.from([2, 0]), u16(encs.length), ...encs.map(i32)]);
const fbUpdateRequest = Buffer.concat([Buffer.from([3, 1]), u16(0), u16(0), u16(1280), u16(800)]);
const keyEvent = Buffer.concat([Buffer.from([4, 1, 0, 0]), i32(0x61)]);
const pointerEvent = Buffer.concat([Buffer.from([5, 1]), u16(10), u16(20)]);
const extendedPointerEvent = Buffer.concat([Buffer.from([5, 0x81]), u16(10), u16(20), Buffer.from([1])]);
const cutText = (text: string) =>
  Buffer.concat([Buffer.from([6, 0, 0, 0]), i32(text.length), Buffer.from(text, 'latin1')]);
const extendedCutText = (payload: Buffer) => Buffer.concat([Buffer.from([6, 0, 0, 0]), i32(-payload.length), payload]);
const enableContinuousUpdates = Buffer.concat([Buffer.from([150, 1]), u16(0), u16(0), u16(1280), u16(800)]);
const clientFence = (payload: string) =>
  Buffer.concat([
    Buffer.from([248, 0, 0, 0]),
    i32(-0x7fffffff),
    Buffer.from([payload.length]),
    Buffer.from(payload, 'latin1'),
  ]);
const setDesktopSize = Buffer.concat([
  Buffer.from([251, 0]),
  u16(800),
  u16(600),
  Buffer.from([1, 0]),
  i32(0),
  u16(0),
  u16(0),
  u16(800),
  u16(600),
  i32(0),
]);
const qemuKey = Buffer.concat([Buffer.from([255, 0]), u16(1), i32(0x61), i32(30)]);
const xvp = Buffer.from([250, 0, 1, 2]);

/** A filter past the handshake (version, security None, ClientInit). */
function connected(): RfbViewOnlyFilter {
  const f = new RfbViewOnlyFilter();
  f.push(Buffer.concat([version, Buffer.from([1, 1])]));
  return f;
}

describe('RFB view-only filter', () => {
  it('forwards the handshake and forces a shared ClientInit', () => {
    const f = new RfbViewOnlyFilter();
    expect(f.push(version)).toEqual(version);
    expect(f.push(Buffer.from([1]))).toEqual(Buffer.from([1]));
    expect(f.push(Buffer.from([0]))).toEqual(Buffer.from([1])); // exclusive request becomes shared
  });

  it('forwards the 16-byte VNC authentication response', () => {
    const f = new RfbViewOnlyFilter();
    const response = Buffer.alloc(16, 7);
    const out = f.push(Buffer.concat([version, Buffer.from([2]), response, Buffer.from([1])]));
    expect(out).toEqual(Buffer.concat([version, Buffer.from([2]), response, Buffer.from([1])]));
  });

  it('forwards viewing messages unchanged', () => {
    const f = connected();
    const viewing = Buffer.concat([
      setPixelFormat,
      setEncodings(7, 16, 0, -223, -313),
      fbUpdateRequest,
      enableContinuousUpdates,
      clientFence('abc'),
    ]);
    expect(f.push(viewing)).toEqual(viewing);
  });

  it('drops keys, pointer, clipboard, desktop resize, QEMU keys and XVP', () => {
    const f = connected();
    const input = Buffer.concat([
      keyEvent,
      pointerEvent,
      cutText('secret'),
      extendedCutText(Buffer.alloc(12, 9)),
      setDesktopSize,
      qemuKey,
      xvp,
    ]);
    expect(f.push(Buffer.concat([input, fbUpdateRequest]))).toEqual(fbUpdateRequest);
  });

  it('frames extended pointer events once the client announced them', () => {
    const f = connected();
    const enc = setEncodings(-316);
    expect(f.push(Buffer.concat([enc, extendedPointerEvent, fbUpdateRequest]))).toEqual(
      Buffer.concat([enc, fbUpdateRequest]),
    );
  });

  it('reassembles messages split across chunks, byte by byte', () => {
    const f = new RfbViewOnlyFilter();
    const stream = Buffer.concat([
      version,
      Buffer.from([1, 1]),
      setEncodings(0, 7),
      keyEvent,
      pointerEvent,
      fbUpdateRequest,
      cutText('x'.repeat(300)),
      fbUpdateRequest,
    ]);
    const out: Buffer[] = [];
    for (const byte of stream) out.push(f.push(Buffer.from([byte])));
    expect(Buffer.concat(out)).toEqual(
      Buffer.concat([version, Buffer.from([1, 1]), setEncodings(0, 7), fbUpdateRequest, fbUpdateRequest]),
    );
  });

  it('skips a long clipboard text without holding it', () => {
    const f = connected();
    const text = cutText('y'.repeat(100_000));
    expect(f.push(text.subarray(0, 50))).toHaveLength(0);
    expect(f.push(Buffer.concat([text.subarray(50), fbUpdateRequest]))).toEqual(fbUpdateRequest);
  });

  it('closes on an unknown message type, an unknown security type, or RFB 3.3', () => {
    expect(() => connected().push(Buffer.from([99, 0, 0, 0]))).toThrow(RfbProtocolError);
    expect(() => new RfbViewOnlyFilter().push(Buffer.concat([version, Buffer.from([19])]))).toThrow(RfbProtocolError);
    expect(() => new RfbViewOnlyFilter().push(Buffer.from('RFB 003.003\n', 'latin1'))).toThrow(RfbProtocolError);
    expect(() => connected().push(Buffer.from([255, 9]))).toThrow(RfbProtocolError);
  });
});
