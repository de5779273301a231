import { CdpCommand, MAX_CDP_COMMAND_BYTES, MAX_CDP_DEPTH } from '../../../contract/cdp.ts';

export type ParsedCommand =
  { ok: true; command: CdpCommand } | { ok: false; id: number; sessionId?: string; message: string };

/**
 * True when the JSON text nests arrays and objects deeper than `limit`. Read off the text before
 * parsing, so that nothing recursive (JSON.stringify, the policy, a logger) ever walks such a value.
 */
function textNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The id to answer an error with: the message's own when it has a usable one, else 0 (as Chromium does). */
function idOf(value: unknown): number {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : 0;
}

/**
 * One client message, parsed once with limits (size, nesting) and checked against the command
 * shape before anything else touches it. Extra fields are dropped: only what CdpCommand names goes on.
 */
export function parseCommand(text: string): ParsedCommand {
  if (text.length > MAX_CDP_COMMAND_BYTES || Buffer.byteLength(text) > MAX_CDP_COMMAND_BYTES) {
    return { ok: false, id: 0, message: `A command may be at most ${MAX_CDP_COMMAND_BYTES / 1024 / 1024} MB` };
  }
  if (textNestsDeeperThan(text, MAX_CDP_DEPTH))
    return { ok: false, id: 0, message: `A command may nest at most ${MAX_CDP_DEPTH} levels deep` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, id: 0, message: 'Message must be a JSON object' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, id: 0, message: 'Message must be a JSON object' };
  const parsed = CdpCommand.safeParse(value);
  if (parsed.success) return { ok: true, command: parsed.data };
  const sessionId = (value as { sessionId?: unknown }).sessionId;
  return {
    ok: false,
    id: idOf(value),
    ...(typeof sessionId === 'string' && sessionId.length <= 200 ? { sessionId } : {}),
    message: parsed.error.issues[0]?.message ?? 'Invalid command',
  };
}
