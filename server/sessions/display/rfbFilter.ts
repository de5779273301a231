/**
 * A view-only guard for the client→server half of an RFB (VNC) connection, RFC 6143 plus the
 * extensions noVNC speaks. x11vnc serves every viewer of a session on one socket and cannot tell a
 * view token from a control token, so the bridge parses what a view-only client sends and keeps
 * input (keys, pointer, clipboard, resizing the desktop, power operations) from reaching it.
 * Anything it cannot frame is a protocol error: the bridge closes the connection rather than guess.
 */

export class RfbProtocolError extends Error {}

/** Client message types (RFC 6143 §7.5 and the community registry). */
const MSG = {
  setPixelFormat: 0,
  setEncodings: 2,
  framebufferUpdateRequest: 3,
  keyEvent: 4,
  pointerEvent: 5,
  clientCutText: 6,
  enableContinuousUpdates: 150,
  clientFence: 248,
  xvp: 250,
  setDesktopSize: 251,
  qemu: 255,
} as const;

/** Pseudo-encoding after which a PointerEvent with the marker bit carries one more byte. */
const EXTENDED_MOUSE_BUTTONS = -316;
const SECURITY_NONE = 1;
const SECURITY_VNC_AUTH = 2;

type Phase = 'version' | 'security' | 'vncAuth' | 'clientInit' | 'messages';

export class RfbViewOnlyFilter {
  private phase: Phase = 'version';
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes of a dropped message still to come (a long clipboard text is skipped, not buffered). */
  private skip = 0;
  private extendedPointer = false;

  /** Feed bytes from the client; returns the bytes that may go on to the server. */
  push(chunk: Buffer): Buffer {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    const out: Buffer[] = [];
    while (data.length) {
      if (this.skip) {
        const n = Math.min(this.skip, data.length);
        this.skip -= n;
        data = data.subarray(n);
        continue;
      }
      const step = this.next(data);
      if (!step) {
        this.pending = Buffer.from(data); // incomplete message: wait for the rest
        break;
      }
      if (step.forward) out.push(step.forward);
      data = data.subarray(step.consumed);
    }
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /** One step of the state machine, or null when `data` does not yet hold a whole unit. */
  private next(data: Buffer): { consumed: number; forward?: Buffer } | null {
    switch (this.phase) {
      case 'version': {
        if (data.length < 12) return null;
        const version = data.subarray(0, 12).toString('latin1');
        // 3.3 lets the server pick the security type without telling the client stream; we only
        // frame 3.7 and 3.8, which x11vnc and noVNC both speak.
        if (!/^RFB 003\.00[78]\n$/.test(version))
          throw new RfbProtocolError(`unsupported RFB version ${JSON.stringify(version)}`);
        this.phase = 'security';
        return { consumed: 12, forward: data.subarray(0, 12) };
      }
      case 'security': {
        const type = data[0]!;
        if (type === SECURITY_NONE) this.phase = 'clientInit';
        else if (type === SECURITY_VNC_AUTH) this.phase = 'vncAuth';
        else throw new RfbProtocolError(`unsupported security type ${type}`);
        return { consumed: 1, forward: data.subarray(0, 1) };
      }
      case 'vncAuth':
        if (data.length < 16) return null;
        this.phase = 'clientInit';
        return { consumed: 16, forward: data.subarray(0, 16) };
      case 'clientInit':
        this.phase = 'messages';
        // Always ask for a shared session: a watcher must not be able to disconnect the others.
        return { consumed: 1, forward: Buffer.from([1]) };
      case 'messages':
        return this.message(data);
    }
  }

  private message(data: Buffer): { consumed: number; forward?: Buffer } | null {
    const type = data[0]!;
    const whole = (length: number, forward: boolean) =>
      data.length < length ? null : { consumed: length, forward: forward ? data.subarray(0, length) : undefined };
    switch (type) {
      case MSG.setPixelFormat:
        return whole(20, true);
      case MSG.setEncodings: {
        if (data.length < 4) return null;
        const length = 4 + 4 * data.readUInt16BE(2);
        if (data.length < length) return null;
        for (let i = 4; i < length; i += 4)
          if (data.readInt32BE(i) === EXTENDED_MOUSE_BUTTONS) this.extendedPointer = true;
        return whole(length, true);
      }
      case MSG.framebufferUpdateRequest:
      case MSG.enableContinuousUpdates:
        return whole(10, true);
      case MSG.keyEvent:
        return whole(8, false);
      case MSG.pointerEvent: {
        if (data.length < 2) return null;
        return whole(this.extendedPointer && data[1]! & 0x80 ? 7 : 6, false);
      }
      case MSG.clientCutText: {
        if (data.length < 8) return null;
        // A negative length is the extended-clipboard form; its size is the absolute value.
        const length = Math.abs(data.readInt32BE(4));
        const have = Math.min(length, data.length - 8);
        this.skip = length - have;
        return { consumed: 8 + have };
      }
      case MSG.clientFence: {
        if (data.length < 9) return null;
        const payload = data[8]!;
        if (payload > 64) throw new RfbProtocolError('ClientFence payload longer than 64 bytes');
        return whole(9 + payload, true);
      }
      case MSG.xvp:
        return whole(4, false);
      case MSG.setDesktopSize: {
        if (data.length < 8) return null;
        return whole(8 + 16 * data[6]!, false);
      }
      case MSG.qemu: {
        if (data.length < 2) return null;
        const sub = data[1]!;
        if (sub === 0) return whole(12, false); // QEMU extended key event
        if (sub === 1) {
          // QEMU audio: enable/disable (4 bytes) or set format (10 bytes); output only, harmless.
          if (data.length < 4) return null;
          return whole(data.readUInt16BE(2) === 2 ? 10 : 4, true);
        }
        throw new RfbProtocolError(`unknown QEMU client message ${sub}`);
      }
      default:
        throw new RfbProtocolError(`unknown RFB client message type ${type}`);
    }
  }
}
