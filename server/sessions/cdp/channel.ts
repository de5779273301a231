/**
 * What travels on a CDP channel and who is at each end, declared apart from both: the hub
 * (hub.ts) opens channels, the client (client.ts) talks over one, and each names the other only
 * through these shapes.
 */

/** One CDP message as Chromium and clients exchange it (flat sessions: a target's carry its sessionId). */
export interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message: string };
  sessionId?: string;
}

/** A consumer of one channel: a connect_url client, the livestream, a run, the manager itself. */
export interface ChannelSink {
  message(msg: CdpMessage): void;
  closed(reason: string): void;
  /** Told when the channel's unanswered commands go over its limits (true) and back under (false): stop and resume reading the client. */
  pressure?(over: boolean): void;
}

/** What a client talks over: a hub channel (CdpChannel) in the service, a connect_url WebSocket in the tests. */
export interface CdpLink {
  readonly closed: boolean;
  send(msg: CdpMessage): void;
  close(): void;
}

/** Where channels come from: a session's hub (CdpHub.channel). */
export interface ChannelSource {
  channel(sink: ChannelSink): Promise<CdpLink>;
}
