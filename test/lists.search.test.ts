import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunsPage } from '../contract/runs.ts';
import { SessionsPage } from '../contract/sessions.ts';
import { runsRepo } from '../server/store/runs.ts';
import { sessionsRepo } from '../server/store/sessions.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

// GET /api/sessions and /api/runs searched, ranged and sorted by the store (SQLite, and Postgres in
// its pass), over rows written the way the services write them, with start times set apart by days.
let server: TestServer;
const ids: Record<string, string> = {};

/** Words in the runs' messages that no id or other field holds. */
const NATO: Record<string, string> = { a: 'alpha', b: 'bravo', c: 'charlie', d: 'delta', e: 'echo' };

const day = (d: number, hour = 12) => new Date(Date.UTC(2026, 9, d, hour)).toISOString();

async function workflow(name: string): Promise<string> {
  const res = await postJson(server, '/api/workflows', { name, flow: { title: name, steps: [] }, variables: [] });
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  server = await startServer();
  const checkout = await workflow('Checkout EU');
  const login = await workflow('login flow');
  const sessions = sessionsRepo(server.app.db, server.app.config.nodeId);
  const runs = runsRepo(server.app.db, server.app.config.nodeId);
  // name, workflow, start day, metadata, minutes it lasted (null: still live)
  const rows = [
    ['a', checkout, 1, 'order 100% paid', 5],
    ['b', login, 2, 'req_789', null],
    ['c', checkout, 3, null, 1],
    ['d', randomUUID(), 4, 'orphan C:\\tmp\\x', 30], // its workflow is not stored: no name
    ['e', login, 5, 'order 7', 2],
  ] as const;
  for (const [name, workflowId, d, metadata, minutes] of rows) {
    const id = randomUUID();
    ids[name] = id;
    await sessions.insert({
      id,
      workflow_id: workflowId,
      proxies: 0,
      isolation: 'browser' as const,
      timeout_seconds: 3600,
      webhook_url: null,
      metadata,
      view_hash: null,
      control_hash: null,
      cdp_hash: null,
      created_at: day(d),
      expires_at: day(d, 13),
    });
    await runs.insert({
      id: randomUUID(),
      session_id: id,
      workflow_id: workflowId,
      status: 'running',
      message: `run ${NATO[name]}`,
      total_actions: 1,
      metadata,
      webhook_url: null,
    });
    const end = minutes === null ? null : new Date(Date.parse(day(d)) + minutes * 60_000).toISOString();
    await server.app.db.run(
      `UPDATE sessions SET created_at = ?, state = ?, ended_at = ?, end_reason = ? WHERE id = ?`,
      [day(d), end ? 'ended' : 'live', end, end ? 'stopped' : null, id],
    );
    await server.app.db.run(`UPDATE runs SET created_at = ?, completed_at = ?, status = ? WHERE session_id = ?`, [
      day(d),
      end,
      end ? 'succeeded' : 'running',
      id,
    ]);
  }
});
afterAll(() => server?.close());

const nameOf = (id: string) => Object.keys(ids).find((k) => ids[k] === id);

async function sessionNames(query: string): Promise<(string | undefined)[]> {
  const res = await server.api(`/api/sessions?${query}`);
  expect(res.status, query).toBe(200);
  return SessionsPage.parse(await res.json()).items.map((s) => nameOf(s.id));
}

async function runNames(query: string): Promise<(string | undefined)[]> {
  const res = await server.api(`/api/runs?${query}`);
  expect(res.status, query).toBe(200);
  return RunsPage.parse(await res.json()).items.map((r) => nameOf(r.session_id));
}

/** Every row of a list followed page by page, `limit` at a time. */
async function allPages(list: 'sessions' | 'runs', query: string, limit: number): Promise<(string | undefined)[]> {
  const names: (string | undefined)[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10; pages++) {
    const res = await server.api(`/api/${list}?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { id?: string; session_id?: string }[]; next_cursor: string | null };
    names.push(...body.items.map((i) => nameOf(i.session_id ?? i.id!)));
    cursor = body.next_cursor;
    if (!cursor) return names;
  }
  throw new Error('more pages than rows');
}

describe('searching a list', () => {
  it("matches the workflow's name in any case, the metadata as text, and the start of the id", async () => {
    expect(await sessionNames('q=checkout')).toEqual(['c', 'a']);
    expect(await sessionNames('q=LOGIN')).toEqual(['e', 'b']);
    expect(await sessionNames('q=order')).toEqual(['e', 'a']);
    expect(await sessionNames(`q=${ids.d!.slice(0, 8)}`)).toEqual(['d']);
    // The middle of an id is not a match: only its start is.
    expect(await sessionNames(`q=${ids.d!.slice(9, 13)}`)).not.toContain('d');
    expect(await runNames('q=checkout')).toEqual(['c', 'a']);
    expect(await runNames('q=run+echo')).toEqual(['e']);
    expect(await runNames(`q=${ids.b!.slice(0, 6).toUpperCase()}`)).toEqual(['b']);
  });

  it('needs every word, and takes %, _, \\ and ! as the characters they are', async () => {
    expect(await sessionNames('q=order+checkout')).toEqual(['a']);
    expect(await sessionNames('q=order+nothing-like-it')).toEqual([]);
    expect(await sessionNames(`q=${encodeURIComponent('100%')}`)).toEqual(['a']);
    expect(await sessionNames(`q=${encodeURIComponent('0%')}`)).toEqual(['a']);
    expect(await sessionNames('q=req_')).toEqual(['b']);
    expect(await sessionNames('q=q_7')).toEqual(['b']);
    // "_" matches no other character, "%" nothing of any length.
    expect(await sessionNames('q=r_q')).toEqual([]);
    expect(await sessionNames(`q=${encodeURIComponent('o%7')}`)).toEqual([]);
    expect(await sessionNames(`q=${encodeURIComponent('!')}`)).toEqual([]);
    // Alone, each is the one row holding it, not every row (a wildcard) nor none (an escape).
    expect(await sessionNames(`q=${encodeURIComponent('%')}`)).toEqual(['a']);
    expect(await sessionNames('q=_')).toEqual(['b']);
    expect(await sessionNames(`q=${encodeURIComponent('\\')}`)).toEqual(['d']);
    expect(await sessionNames(`q=${encodeURIComponent('\\tmp\\')}`)).toEqual(['d']);
    // "\" escapes nothing: "\_" and "\%" are two literal characters, in no row.
    expect(await sessionNames(`q=${encodeURIComponent('\\_')}`)).toEqual([]);
    expect(await sessionNames(`q=${encodeURIComponent('\\%')}`)).toEqual([]);
  });

  it('keeps to starts within from (included) and to (excluded), in any time zone', async () => {
    expect(await sessionNames(`from=${day(2)}&to=${day(4)}`)).toEqual(['c', 'b']);
    // 14:00+02:00 is 12:00 UTC: the same instant as day 2's start.
    expect(await sessionNames(`from=${encodeURIComponent('2026-10-02T14:00:00+02:00')}`)).toEqual(['e', 'd', 'c', 'b']);
    expect(await sessionNames(`to=${day(2, 11)}`)).toEqual(['a']);
    expect(await runNames(`from=${day(4)}&q=order`)).toEqual(['e']);
    expect(await sessionNames(`state=live&from=${day(1)}`)).toEqual(['b']);
  });
});

describe('sorting a list', () => {
  it('sorts by each field both ways, rows without a value last either way, ties newest first', async () => {
    expect(await sessionNames('sort=workflow_name&order=asc')).toEqual(['c', 'a', 'e', 'b', 'd']);
    expect(await sessionNames('sort=workflow_name&order=desc')).toEqual(['e', 'b', 'c', 'a', 'd']);
    expect(await sessionNames('sort=duration&order=asc')).toEqual(['c', 'e', 'a', 'd', 'b']);
    expect(await sessionNames('sort=duration&order=desc')).toEqual(['d', 'a', 'e', 'c', 'b']);
    expect(await sessionNames('sort=created_at&order=asc')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await sessionNames('sort=state&order=asc')).toEqual(['e', 'd', 'c', 'a', 'b']);
    expect(await sessionNames('sort=end_reason&order=asc')).toEqual(['e', 'd', 'c', 'a', 'b']);
    expect(await runNames('sort=duration&order=desc')).toEqual(['d', 'a', 'e', 'c', 'b']);
    expect(await runNames('sort=status&order=asc')).toEqual(['b', 'e', 'd', 'c', 'a']);
  });

  it('pages through every order with its cursor, each row once and in the same order as one page', async () => {
    for (const [list, fields] of [
      ['sessions', ['created_at', 'workflow_name', 'state', 'end_reason', 'duration']],
      ['runs', ['created_at', 'workflow_name', 'status', 'duration']],
    ] as const) {
      for (const sort of fields) {
        for (const order of ['asc', 'desc']) {
          const query = `sort=${sort}&order=${order}`;
          const whole = await allPages(list, query, 100);
          expect(whole).toHaveLength(5);
          for (const limit of [1, 2, 3]) expect(await allPages(list, query, limit), `${list} ${query}`).toEqual(whole);
        }
      }
    }
    // Searched and ranged too.
    expect(await allPages('sessions', `q=order&sort=workflow_name&order=asc&to=${day(6)}`, 1)).toEqual(['a', 'e']);
  });
});

describe('a bad search, range, order or cursor', () => {
  it('is a 422 that names the field and says what is wanted', async () => {
    const first = (await (await server.api('/api/sessions?limit=1&sort=duration&order=asc')).json()) as {
      next_cursor: string;
    };
    for (const [list, query, field, words] of [
      ['sessions', `q=${'x'.repeat(201)}`, 'q', 'at most 200 characters'],
      ['runs', `q=${Array.from({ length: 11 }, (_, i) => `w${i}`).join('+')}`, 'q', 'at most 10 words'],
      ['sessions', 'q=a%00b', 'q', 'NUL'],
      ['sessions', 'from=yesterday', 'from', 'ISO 8601'],
      ['runs', 'to=2026-10-01', 'to', 'ISO 8601'],
      ['sessions', `from=${day(3)}&to=${day(3)}`, 'to', 'later than from'],
      ['runs', 'sort=message', 'sort', 'one of created_at, workflow_name, status, duration'],
      ['sessions', 'order=up', 'order', 'asc or desc'],
      ['sessions', `cursor=${first.next_cursor}`, 'cursor', 'sorted by duration asc'],
      ['sessions', `sort=duration&order=desc&cursor=${first.next_cursor}`, 'cursor', 'sorted by duration asc'],
    ] as const) {
      const res = await server.api(`/api/${list}?${query}`);
      expect(res.status, query).toBe(422);
      const text = JSON.stringify(await res.json());
      expect(text, query).toContain(field);
      expect(text, query).toContain(words);
    }
  });

  it("is text, never SQL: a search or a cursor's value made to break out of its query matches nothing and changes nothing", async () => {
    for (const q of ["' OR 1=1 --", "x') OR ('1'='1", "'; DROP TABLE sessions; --"])
      expect(await sessionNames(`q=${encodeURIComponent(q)}`), q).toEqual([]);
    const forged = (sort: string, value: unknown) =>
      Buffer.from(JSON.stringify([day(9), 'z', sort, 'asc', value])).toString('base64url');
    // A number's place given text (which Postgres would fail to cast) is a 422 on the cursor, not a 500.
    const res = await server.api(`/api/sessions?sort=duration&order=asc&cursor=${forged('duration', '0 OR 1=1')}`);
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('cursor');
    // Quotes in a text value are a value: every name sorts after "'", and the nameless row last.
    expect(await sessionNames(`sort=workflow_name&order=asc&cursor=${forged('workflow_name', "' OR 1=1 --")}`)).toEqual(
      ['c', 'a', 'e', 'b', 'd'],
    );
    expect(await sessionNames('')).toHaveLength(5);
  });

  it('takes a cursor of the newest-first order as it always was', async () => {
    const res = await server.api('/api/runs?limit=2');
    const { next_cursor } = RunsPage.parse(await res.json());
    const decoded = JSON.parse(Buffer.from(next_cursor!, 'base64url').toString('utf8')) as unknown[];
    expect(decoded).toHaveLength(2);
    expect(await runNames(`limit=2&cursor=${next_cursor}`)).toEqual(['c', 'b']);
  });
});
