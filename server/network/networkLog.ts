/**
 * One session's network and console record, in memory while the session is live: what the tools
 * read, and what the HAR is written from at the end. Bounded by bytes (a ring: the oldest requests
 * go first) and by count, so a page that loads forever cannot grow the server.
 */

export interface Header {
  name: string;
  value: string;
}

/** A body as kept: its text (possibly cut), and its real size in bytes. */
export interface KeptBody {
  text: string;
  /** The body's real size in bytes, whatever was kept of it. */
  size: number;
  /** The text is the body's start only. */
  truncated: boolean;
}

/** Why a body was not kept, said in place of it. */
export interface SkippedBody {
  skipped: string;
  size: number;
}

export interface NetworkEntry {
  /** 1-based, in the order requests started; never reused, also once the entry left the ring. */
  index: number;
  /** The target (page, worker) the request was made by, as CDP names it. */
  targetId: string;
  method: string;
  url: string;
  resourceType: string;
  /** Wall clock when the request started (ms since the epoch). */
  startedAt: number;
  requestHeaders: Header[];
  requestBody?: KeptBody;
  status?: number;
  statusText?: string;
  protocol?: string;
  mimeType?: string;
  responseHeaders?: Header[];
  /** CDP's ResourceTiming of the response, when the browser gave it. */
  timing?: ResourceTiming;
  /** Bytes on the wire (headers and compressed body). */
  transferSize?: number;
  /** Bytes of the body after decoding. */
  bodySize?: number;
  responseBody?: KeptBody | SkippedBody;
  failure?: string;
  /** How long from start to finish or failure, ms. */
  duration?: number;
  fromCache?: boolean;
  redirectURL?: string;
}

/** The fields of CDP's Network.ResourceTiming the HAR needs (ms relative to requestTime, -1 when not there). */
export interface ResourceTiming {
  requestTime: number;
  dnsStart: number;
  dnsEnd: number;
  connectStart: number;
  connectEnd: number;
  sslStart: number;
  sslEnd: number;
  sendStart: number;
  sendEnd: number;
  receiveHeadersEnd: number;
}

export type ConsoleLevel = 'error' | 'warning' | 'info' | 'debug';

export interface ConsoleEntry {
  level: ConsoleLevel;
  text: string;
  url?: string;
  /** Counted navigations of main frames before it: `all: false` answers those since the last one. */
  navigation: number;
}

/** Console messages kept per session (the newest); their texts are cut where the page logger cuts them. */
const MAX_CONSOLE_ENTRIES = 1000;
/** Requests kept per session at most, whatever their bytes. */
const MAX_ENTRIES = 5000;
/** What an entry costs beyond its strings: the object, its numbers. */
const ENTRY_OVERHEAD = 200;

/** CDP's console types → the four levels playwright-mcp filters by. */
export function consoleLevelOf(type: string): ConsoleLevel {
  if (type === 'error' || type === 'assert') return 'error';
  if (type === 'warning' || type === 'warn') return 'warning';
  if (type === 'debug' || type === 'trace' || type === 'verbose') return 'debug';
  return 'info';
}

const headersBytes = (headers: Header[] | undefined) =>
  (headers ?? []).reduce((n, h) => n + h.name.length + h.value.length, 0);

function bytesOf(e: NetworkEntry): number {
  const body = (b: KeptBody | SkippedBody | undefined) => (b && 'text' in b ? b.text.length : 0);
  return (
    ENTRY_OVERHEAD +
    e.url.length +
    headersBytes(e.requestHeaders) +
    headersBytes(e.responseHeaders) +
    body(e.requestBody) +
    body(e.responseBody) +
    (e.failure?.length ?? 0)
  );
}

export class NetworkLog {
  private readonly entries: NetworkEntry[] = [];
  private readonly console: ConsoleEntry[] = [];
  private bytes = 0;
  private nextIndex = 1;
  private navigations = 0;
  /** Requests that left the ring to make room, for the tools to say so. */
  dropped = 0;

  constructor(readonly maxBytes: number) {}

  /** A request starts: it gets its index. Returns the entry, to fill in as the response comes. */
  add(entry: Omit<NetworkEntry, 'index'>): NetworkEntry {
    const e: NetworkEntry = { ...entry, index: this.nextIndex++ };
    this.entries.push(e);
    this.bytes += bytesOf(e);
    this.trim();
    return e;
  }

  /** Change an entry and count its new size (bodies arrive late); a no-op once it left the ring. */
  update(entry: NetworkEntry, change: Partial<NetworkEntry>): void {
    if (!this.entries.includes(entry)) return;
    this.bytes -= bytesOf(entry);
    Object.assign(entry, change);
    this.bytes += bytesOf(entry);
    this.trim();
  }

  /** Bytes a new body may still take without pushing out everything else: a quarter of the cap. */
  get bodyBudget(): number {
    return Math.floor(this.maxBytes / 4);
  }

  private trim(): void {
    while (this.entries.length > 1 && (this.bytes > this.maxBytes || this.entries.length > MAX_ENTRIES)) {
      this.bytes -= bytesOf(this.entries.shift()!);
      this.dropped++;
    }
  }

  list(): readonly NetworkEntry[] {
    return this.entries;
  }

  /** The request by its index, or undefined when there was none or it left the ring. */
  byIndex(index: number): NetworkEntry | undefined {
    const first = this.entries[0]?.index ?? this.nextIndex;
    return this.entries[index - first];
  }

  /** The highest index given so far (0: no request yet). */
  get lastIndex(): number {
    return this.nextIndex - 1;
  }

  navigated(): void {
    this.navigations++;
  }

  addConsole(entry: Omit<ConsoleEntry, 'navigation'>): void {
    this.console.push({ ...entry, navigation: this.navigations });
    if (this.console.length > MAX_CONSOLE_ENTRIES) this.console.shift();
  }

  /** Console messages, oldest first; `all: false`: only those since the last main-frame navigation. */
  consoleMessages(all: boolean): readonly ConsoleEntry[] {
    return all ? this.console : this.console.filter((m) => m.navigation === this.navigations);
  }
}
