import { WebSocket } from 'ws';
import { CdpClient } from '../cdp/client.ts';
import type { SessionCdp } from '../cdp/hub.ts';
import { jpegSize } from './jpegSize.ts';

/**
 * The livestream: CDP Page.startScreencast frames of the session's active tab, relayed to a
 * viewer's WebSocket. Each relayed message is binary: an 8-byte big-endian float64 (the frame's
 * capture time, ms since the epoch) followed by the JPEG. The viewer never sends anything we act on.
 *
 * Chromium has no "active tab" in CDP, so every page target is screencast and the frames of one are
 * relayed: the newest tab (new tabs open in front), else the one that most recently became visible
 * (Page.screencastVisibilityChanged fires when a tab is brought to front or hidden). Hidden tabs
 * produce no frames, so screencasting them all costs nothing until they show.
 *
 * The stream also says which tab it shows and how its last frame maps onto that page (`shown()`),
 * so a viewer that may drive the session sends its input there (screencastInput.ts).
 */

export interface ScreencastOptions {
  quality?: number;
  maxWidth?: number;
  maxHeight?: number;
  onError?: (err: Error) => void;
}

/** Drop frames rather than queue them when a viewer falls this far behind: live beats complete. */
const MAX_QUEUED_BYTES = 1024 * 1024;

/** How the last frame of a tab maps onto its page: the JPEG's size and CDP's screencast frame metadata. */
export interface FrameGeometry {
  /** The JPEG's pixels. */
  width: number;
  height: number;
  /** The page's viewport in CSS pixels, and the height above it the frame also shows. */
  deviceWidth: number;
  deviceHeight: number;
  offsetTop: number;
}

/** The tab a viewer is shown: where its input goes (the tab's CDP session on the stream's own client). */
export interface ShownTab {
  geometry: FrameGeometry;
  send(method: string, params: Record<string, unknown>): Promise<unknown>;
}

export interface ScreencastStream {
  /** Stop relaying (closing the viewer's socket with `code`). Idempotent. */
  end(code?: number, reason?: string): void;
  /** The tab on screen, once it has sent a frame; undefined before the first frame or after the end. */
  shown(): ShownTab | undefined;
}

interface Tab {
  targetId: string;
  sessionId: string;
  visible: boolean;
  /** Bumped when the tab opens or shows; the highest visible one is relayed. */
  rank: number;
  lastFrame?: Buffer;
  geometry?: FrameGeometry;
}

function geometryOf(jpeg: Buffer, metadata: Record<string, unknown> | undefined): FrameGeometry | undefined {
  const size = jpegSize(jpeg);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const deviceWidth = num(metadata?.deviceWidth);
  const deviceHeight = num(metadata?.deviceHeight);
  if (!size || !deviceWidth || !deviceHeight) return undefined;
  return { ...size, deviceWidth, deviceHeight, offsetTop: num(metadata?.offsetTop) ?? 0 };
}

/** Relay the active tab's screencast to `viewer` until either side closes. */
export function streamScreencast(viewer: WebSocket, hub: SessionCdp, opts: ScreencastOptions = {}): ScreencastStream {
  const stream = watchScreencast(hub, {
    ...opts,
    onFrame: (frame) => {
      if (viewer.readyState !== WebSocket.OPEN || viewer.bufferedAmount > MAX_QUEUED_BYTES) return;
      viewer.send(frame, { binary: true });
    },
    onEnd: (code, reason) => {
      if (viewer.readyState === WebSocket.OPEN || viewer.readyState === WebSocket.CONNECTING)
        viewer.close(code, reason);
    },
  });
  viewer.on('close', () => stream.end());
  viewer.on('error', () => stream.end());
  return stream;
}

export interface ScreencastWatch extends ScreencastOptions {
  /** Each frame of the tab on screen (8-byte capture time, then the JPEG); also the last one again when another tab comes to front. */
  onFrame: (frame: Buffer) => void;
  /** Once, when the watch ends (asked to, or the browser went). */
  onEnd?: (code: number, reason: string) => void;
}

/** Watch the active tab's screencast until ended or the browser goes (the livestream, the live view, a recording). */
export function watchScreencast(hub: SessionCdp, opts: ScreencastWatch): ScreencastStream {
  let cdp: CdpClient | undefined;
  const tabs = new Map<string, Tab>(); // by CDP session id
  const attaching = new Set<string>(); // target ids
  let rankCounter = 0;
  let active: Tab | undefined;
  let closed = false;

  const end = (code = 1000, reason = '') => {
    if (closed) return;
    closed = true;
    cdp?.close();
    opts.onEnd?.(code, reason);
  };
  const fail = (err: unknown) => {
    if (closed) return;
    opts.onError?.(err instanceof Error ? err : new Error(String(err)));
  };

  const relay = (frame: Buffer) => opts.onFrame(frame);

  const pickActive = () => {
    let best: Tab | undefined;
    for (const tab of tabs.values()) if (tab.visible && (!best || tab.rank > best.rank)) best = tab;
    // No tab claims to be visible (e.g. the window is minimised): keep the newest one.
    if (!best) for (const tab of tabs.values()) if (!best || tab.rank > best.rank) best = tab;
    if (best !== active) {
      active = best;
      if (active?.lastFrame) relay(active.lastFrame); // a still page sends no new frame: show its last
    }
  };

  const attach = async (targetId: string) => {
    if (attaching.has(targetId)) return;
    attaching.add(targetId);
    try {
      const { sessionId } = await cdp!.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId,
        flatten: true,
      });
      const tab: Tab = { targetId, sessionId, visible: true, rank: ++rankCounter };
      tabs.set(sessionId, tab);
      pickActive();
      const state = await cdp!.send(
        'Runtime.evaluate',
        { expression: 'document.visibilityState', returnByValue: true },
        sessionId,
      );
      tab.visible = (state.result as { value?: unknown } | undefined)?.value !== 'hidden';
      pickActive();
      await cdp!.send(
        'Page.startScreencast',
        {
          format: 'jpeg',
          quality: opts.quality ?? 70,
          maxWidth: opts.maxWidth ?? 1920,
          maxHeight: opts.maxHeight ?? 1080,
          everyNthFrame: 1,
        },
        sessionId,
      );
    } catch (err) {
      fail(err); // the tab closed while we attached: nothing to show
    }
  };

  const onEvent = (msg: { method: string; params: Record<string, unknown>; sessionId?: string }) => {
    const p = msg.params;
    switch (msg.method) {
      case 'Target.targetCreated': {
        const info = p.targetInfo as { targetId: string; type: string };
        if (info.type === 'page') void attach(info.targetId);
        break;
      }
      case 'Target.targetDestroyed':
      case 'Target.detachedFromTarget': {
        for (const [sessionId, tab] of tabs) {
          if (tab.targetId === p.targetId || sessionId === p.sessionId) {
            tabs.delete(sessionId);
            attaching.delete(tab.targetId);
          }
        }
        pickActive();
        break;
      }
      case 'Page.screencastFrame': {
        const sessionId = msg.sessionId!;
        // Ack first: Chromium sends the next frame only after the ack, so this sets the frame rate.
        cdp!.send('Page.screencastFrameAck', { sessionId: p.sessionId }, sessionId).catch(() => {});
        const tab = tabs.get(sessionId);
        if (!tab) break;
        const jpeg = Buffer.from(p.data as string, 'base64');
        const metadata = p.metadata as Record<string, unknown> | undefined;
        tab.geometry = geometryOf(jpeg, metadata) ?? tab.geometry;
        const ts = metadata?.timestamp as number | undefined;
        const frame = Buffer.allocUnsafe(8 + jpeg.length);
        frame.writeDoubleBE(ts ? ts * 1000 : Date.now(), 0);
        jpeg.copy(frame, 8);
        tab.lastFrame = frame;
        if (!tab.visible) {
          // A frame means it is painting, so it is on screen after all.
          tab.visible = true;
          pickActive();
        } else if (tab === active) relay(frame);
        break;
      }
      case 'Page.screencastVisibilityChanged': {
        const tab = tabs.get(msg.sessionId!);
        if (!tab) break;
        tab.visible = p.visible === true;
        if (tab.visible) tab.rank = ++rankCounter;
        pickActive();
        break;
      }
    }
  };

  CdpClient.open(hub)
    .then(async (client) => {
      cdp = client;
      if (closed) {
        client.close();
        return;
      }
      client.on('*', (ev, sessionId) =>
        onEvent({ ...(ev as { method: string; params: Record<string, unknown> }), sessionId }),
      );
      client.onClose(() => end(1011, 'browser closed'));
      await client.send('Target.setDiscoverTargets', { discover: true });
    })
    .catch((err: unknown) => {
      fail(err);
      end(1011, 'browser unavailable');
    });
  return {
    end,
    shown: () => {
      const tab = active;
      if (closed || !cdp || !tab?.geometry) return undefined;
      const client = cdp;
      return { geometry: tab.geometry, send: (method, params) => client.send(method, params, tab.sessionId) };
    },
  };
}
