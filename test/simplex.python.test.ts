import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EDITOR_EXAMPLE_TURN } from './fixtures/agentSite.ts';
import { lastToolResult } from './helpers/fakeModel.ts';
import { agentBed } from './helpers/agentBed.ts';

/**
 * Simplex's official Python client, run by python3 and pointed at Browserdesk by its base_url only,
 * driving an editor session the way Simplex's examples/editor_example.py and its CLI's `connect` do.
 * The model is the scripted fake. The client is another project's source, so it is not in this
 * repository: it is read from SIMPLEX_PYTHON_DIR, or from ../shared/vendor/simplex-python beside the
 * clone (there for CI and for this project's developers).
 */
const SHARED_CLIENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/vendor/simplex-python');
const CLIENT_DIR = process.env.SIMPLEX_PYTHON_DIR ?? (fs.existsSync(SHARED_CLIENT) ? SHARED_CLIENT : undefined);
if (!CLIENT_DIR) {
  console.warn(
    `simplex.python: skipped. Put Simplex's Python client (the folder holding simplex/) at ${SHARED_CLIENT} or name it in SIMPLEX_PYTHON_DIR.`,
  );
}

const bed = agentBed();

/**
 * One JSON line per step: {"step": name, "value": …}. Any exception ends it with
 * {"step": "error", …} and exit code 1. Streams stop at the turn's end (RunCompleted/RunError).
 */
const SCRIPT = String.raw`
import json, os, sys, traceback
from simplex import SimplexClient

def out(step, value):
    print(json.dumps({"step": step, "value": value}), flush=True)

def stream_turn(client, result, answer=None):
    for event in client.stream_session(result["logs_url"]):
        out("event", event)
        kind = event.get("event") or event.get("type", "")
        if kind == "AskUserQuestion" and answer is not None:
            # As simplex/cli/connect.py's _handle_ask_user_interactive sends it.
            data = event.get("data", event)
            payload = json.dumps({"type": "ask_user_answer", "tool_use_id": data.get("tool_use_id", ""), "answers": {"0": answer}})
            out("answered", client.send_message(result["message_url"], payload))
        if kind in ("RunCompleted", "RunFinished", "RunError"):
            return

try:
    client = SimplexClient(api_key=os.environ["SIMPLEX_API_KEY"], base_url=os.environ["SIMPLEX_BASE_URL"], timeout=60, max_retries=0)
    site = os.environ["SITE"]

    # examples/editor_example.py
    result = client.start_editor_session(name="Example.com Demo", url=site + "/start")
    out("result", result)
    out("sent", client.send_message(result["message_url"], 'Click the "More information..." link on the page.'))
    stream_turn(client, result)
    out("poll", client.poll_events(result["logs_url"], since=0, limit=100))
    out("active", client.get_workflow_active_session(result["workflow_id"]))
    out("interrupt", client.interrupt(result["session_id"]))
    out("close", client.close_session(result["session_id"]))

    # The CLI's answer to a question: JSON inside a message.
    asked = client.start_editor_session(name="Question", url=site + "/start")
    out("asked_result", asked)
    out("sent", client.send_message(asked["message_url"], "Open the page I want."))
    stream_turn(client, asked, answer="More")
    out("close", client.close_session(asked["session_id"]))
except BaseException as e:
    out("error", {"type": type(e).__name__, "message": str(e), "trace": traceback.format_exc()})
    sys.exit(1)
`;

interface Line {
  step: string;
  // What the Python client returned, as JSON; the test reads fields off it freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  value: any;
}

function runPython(timeoutMs: number): Promise<{ code: number | null; lines: Line[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', SCRIPT], {
      env: {
        ...process.env,
        PYTHONPATH: CLIENT_DIR!,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONUNBUFFERED: '1',
        SIMPLEX_API_KEY: bed.server.apiKey,
        SIMPLEX_BASE_URL: `${bed.server.url}/api`,
        SITE: bed.site.origin,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line);
      resolve({ code, lines, stderr });
    });
  });
}

describe.skipIf(!CLIENT_DIR)("Simplex's Python client against Browserdesk", () => {
  it('runs the editor example (start, message, stream, poll, active_session, interrupt, close) and answers a question as the CLI does', async () => {
    bed.fake.reset();
    bed.fake.fallback = { kind: 'reply', text: 'ok' };
    bed.fake.enqueue(
      // The editor example's turn.
      ...EDITOR_EXAMPLE_TURN,
      // The question's turn.
      { kind: 'tools', calls: [{ name: 'ask_user', args: { question: 'Which page?', options: ['Start', 'More'] } }] },
      {
        kind: 'respond',
        with: (req) => ({
          kind: 'tools',
          calls: [{ name: 'done', args: { summary: `You chose ${lastToolResult(req)}.` } }],
        }),
      },
    );

    // Two editor sessions (two browsers started) and their turns: only a hang guard, generous for a loaded host.
    const { code, lines, stderr } = await runPython(110_000);
    const error = lines.find((l) => l.step === 'error');
    expect(error, JSON.stringify(error?.value ?? stderr)).toBeUndefined();
    expect(code, stderr).toBe(0);

    const [firstClose, secondClose] = lines.filter((l) => l.step === 'close');
    const firstEnd = lines.indexOf(firstClose!);
    const first = lines.slice(0, firstEnd + 1);
    const second = lines.slice(firstEnd + 1);

    // start_editor_session: what the example and the CLI read.
    const result = first.find((l) => l.step === 'result')!.value;
    expect(result).toMatchObject({
      succeeded: true,
      workflow_id: expect.any(String),
      session_id: expect.any(String),
      vnc_url: expect.stringContaining(`/s/${result.session_id}/vnc`),
      logs_url: expect.stringContaining(`/api/session/${result.session_id}/stream`),
      message_url: expect.stringContaining(`/api/session/${result.session_id}/message`),
      filesystem_url: null,
    });
    expect(first.find((l) => l.step === 'sent')!.value).toEqual({ status: 'received' });

    // stream_session: Simplex's event shapes, to the end of the turn.
    const events = first.filter((l) => l.step === 'event').map((l) => l.value);
    const kinds = events.map((e) => e.event);
    expect(kinds).toEqual(expect.arrayContaining(['RunStarted', 'ToolCallStarted', 'ToolCallCompleted']));
    expect(kinds.at(-1)).toBe('RunCompleted');
    expect(events.at(-1)).toMatchObject({ message: 'Clicked the More information link.' });
    const tools = events.filter((e) => e.event === 'ToolCallStarted').map((e) => e.tool?.tool_name);
    expect(tools).toEqual(['browser_snapshot', 'browser_click']);
    // The example prints event.get("tool_name"): it is there too, not "unknown".
    expect(events.filter((e) => e.event === 'ToolCallStarted').map((e) => e.tool_name)).toEqual(tools);

    // poll_events: the /events sibling of logs_url.
    const poll = first.find((l) => l.step === 'poll')!.value;
    expect(poll).toMatchObject({
      events: expect.any(Array),
      next_index: expect.any(Number),
      total: expect.any(Number),
      has_more: false,
    });
    expect(poll.total).toBeGreaterThanOrEqual(events.length);
    expect(poll.events.length).toBe(poll.total);
    expect(poll.next_index).toBe(poll.total);
    expect(poll.events.map((e: { event: string }) => e.event)).toEqual(expect.arrayContaining(kinds));

    // get_workflow_active_session, interrupt on an idle agent, close_session.
    expect(first.find((l) => l.step === 'active')!.value).toMatchObject({
      session_id: result.session_id,
      message_url: expect.stringContaining(`/api/session/${result.session_id}/message`),
      logs_url: expect.stringContaining(`/api/session/${result.session_id}/stream`),
    });
    expect(first.find((l) => l.step === 'interrupt')!.value).toMatchObject({ succeeded: true });
    expect(firstClose!.value).toMatchObject({ succeeded: true });

    // The question, answered with JSON inside send_message, and the turn goes on to its end.
    const asked = second.filter((l) => l.step === 'event').map((l) => l.value);
    const question = asked.find((e) => e.event === 'AskUserQuestion');
    expect(question).toMatchObject({
      tool_use_id: expect.any(String),
      questions: [{ question: 'Which page?', options: [{ label: 'Start' }, { label: 'More' }] }],
    });
    expect(second.find((l) => l.step === 'answered')!.value).toEqual({ status: 'received' });
    expect(asked.at(-1)).toMatchObject({ event: 'RunCompleted', message: 'You chose More.' });
    expect(secondClose!.value).toMatchObject({ succeeded: true });
  });
});
