import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startCompatSite, type CompatSite } from './fixtures/compatSite.ts';
import { callTool, mcpClient, refOf, textOf } from './helpers/mcpClient.ts';
import { startServer, type TestServer } from './helpers/server.ts';

/** A playwright-mcp 0.0.83-style session against /api/mcp: its argument names, its new tools, the caps groups. */
let server: TestServer;
let site: CompatSite;
let core: Client;
let all: Client;

beforeAll(async () => {
  server = await startServer();
  site = await startCompatSite();
  core = await mcpClient(server);
  all = await mcpClient(server, 'bearer', '/api/mcp?caps=pdf,evaluate');
});

afterAll(async () => {
  await core?.close();
  await all?.close();
  await server?.discard();
  await site?.close();
});

async function newSession(): Promise<string> {
  const res = await callTool(core, 'session_create', { workflow_name: 'mcp-compat', start_url: `${site.origin}/` });
  expect(res.isError, textOf(res)).toBeFalsy();
  return (JSON.parse((res.content[0] as { text: string }).text) as { session_id: string }).session_id;
}

/** What the page noted (window.seen), read with browser_evaluate. */
async function seen<T>(id: string): Promise<T> {
  const res = await callTool(all, 'browser_evaluate', { session_id: id, function: '() => window.seen' });
  expect(res.isError, textOf(res)).toBeFalsy();
  return JSON.parse(textOf(res)) as T;
}

describe('playwright-mcp 0.0.83 names on /api/mcp', () => {
  it('drives a page with target (ref or selector), element optional, doubleClick, button, modifiers, slowly, the new fill-form shape, textGone, fullPage and navigate_back', async () => {
    const id = await newSession();
    try {
      const snap = textOf(await callTool(core, 'browser_snapshot', { session_id: id }));
      const clickRef = refOf(snap, /button "Click me"/);
      // target as a ref, no element; then as a selector with modifiers; a double and a right click.
      for (const args of [
        { target: clickRef },
        { target: '#clicker', modifiers: ['Shift', 'ControlOrMeta'] },
        { target: '#clicker', doubleClick: true },
        { target: clickRef, element: 'Click me', button: 'right' },
      ]) {
        const res = await callTool(core, 'browser_click', { session_id: id, ...args });
        expect(res.isError, `${JSON.stringify(args)}: ${textOf(res)}`).toBeFalsy();
      }
      const clicks = (await seen<{ clicks: { kind: string; button: number; ctrl: boolean; shift: boolean }[] }>(id))
        .clicks;
      expect(clicks.filter((c) => c.kind === 'dblclick')).toHaveLength(1);
      expect(clicks.find((c) => c.kind === 'click' && c.shift && c.ctrl)).toBeDefined();
      expect(clicks.find((c) => c.kind === 'contextmenu' && c.button === 2)).toBeDefined();

      // ref and target together must agree.
      const both = await callTool(core, 'browser_click', { session_id: id, target: '#clicker', ref: clickRef });
      expect(both.isError).toBe(true);
      expect(textOf(both)).toMatch(/target and ref name different elements/);

      // A selector that matches none or several elements says how many.
      const none = await callTool(core, 'browser_click', { session_id: id, target: '#nothing-here' });
      expect(textOf(none)).toMatch(/matches 0 elements/);
      const twins = await callTool(core, 'browser_click', { session_id: id, target: 'button.twin' });
      expect(twins.isError).toBe(true);
      expect(textOf(twins)).toMatch(/matches 2 elements/);

      // slowly types key by key: one keydown per character.
      const typed = await callTool(core, 'browser_type', {
        session_id: id,
        target: '#keys',
        text: 'hello',
        slowly: true,
      });
      expect(typed.isError, textOf(typed)).toBeFalsy();
      // A key event per character (fill, without slowly, sends none).
      expect((await seen<{ keydowns: number }>(id)).keydowns).toBeGreaterThanOrEqual(5);

      const fresh = textOf(await callTool(core, 'browser_snapshot', { session_id: id }));
      const filled = await callTool(core, 'browser_fill_form', {
        session_id: id,
        fields: [
          { name: 'Agree', type: 'checkbox', target: refOf(fresh, /checkbox "Agree"/), value: 'true' },
          { name: 'Fast', type: 'radio', target: '#fast', value: 'true' },
          { name: 'Level', type: 'slider', target: '#level', value: '7' },
          { name: 'Colour', type: 'combobox', ref: refOf(fresh, /combobox "Colour"/), value: 'Blue' },
          // Today's shape still works.
          { element: 'Keys', ref: refOf(fresh, /textbox "Keys"/), value: 'plain' },
        ],
      });
      expect(filled.isError, textOf(filled)).toBeFalsy();
      const values = await callTool(all, 'browser_evaluate', {
        session_id: id,
        function:
          "() => [document.getElementById('agree').checked, document.getElementById('fast').checked, document.getElementById('level').value, document.getElementById('colour').value, document.getElementById('keys').value]",
      });
      expect(JSON.parse(textOf(values))).toEqual([true, true, '7', 'blue', 'plain']);

      const gone = await callTool(core, 'browser_wait_for', { session_id: id, textGone: 'Loading soon', time: 5 });
      expect(gone.isError, textOf(gone)).toBeFalsy();
      expect(textOf(gone)).toMatch(/is gone/);

      const shot = await callTool(core, 'browser_take_screenshot', { session_id: id, fullPage: true, type: 'png' });
      expect(shot.isError, textOf(shot)).toBeFalsy();
      expect(textOf(shot)).toMatch(/full page/);
      const elementShot = await callTool(core, 'browser_take_screenshot', { session_id: id, target: '#dst' });
      expect(elementShot.isError, textOf(elementShot)).toBeFalsy();

      const pressed = await callTool(core, 'browser_press_key', { session_id: id, key: 'a', target: '#keys' });
      expect(pressed.isError, textOf(pressed)).toBeFalsy();

      const dragged = await callTool(core, 'browser_drag', { session_id: id, startTarget: '#src', endTarget: '#dst' });
      expect(dragged.isError, textOf(dragged)).toBeFalsy();
      expect((await seen<{ dragged: boolean }>(id)).dragged).toBe(true);

      const dropped = await callTool(core, 'browser_drop', {
        session_id: id,
        target: '#zone',
        data: { 'text/plain': 'hello drop' },
      });
      expect(dropped.isError, textOf(dropped)).toBeFalsy();
      expect((await seen<{ dropped: { text: string } }>(id)).dropped.text).toBe('hello drop');
      const refusedDrop = await callTool(core, 'browser_drop', {
        session_id: id,
        target: '#dst',
        paths: ['/etc/passwd'],
      });
      expect(refusedDrop.isError).toBe(true);
      expect(textOf(refusedDrop)).toMatch(/not a file this session downloaded/);

      const nav = await callTool(core, 'browser_click', { session_id: id, target: 'a[href="/second"]' });
      expect(textOf(nav)).toMatch(/Second page/);
      const back = await callTool(core, 'browser_navigate_back', { session_id: id });
      expect(back.isError, textOf(back)).toBeFalsy();
      expect(textOf(back)).toMatch(/Compat page/);
    } finally {
      await callTool(core, 'session_close', { session_id: id });
    }
  });

  it('finds lines of the latest snapshot with their refs, by text or regex, and stops a runaway regex', async () => {
    const id = await newSession();
    try {
      const byText = await callTool(core, 'browser_find', { session_id: id, text: 'drop' });
      expect(byText.isError, textOf(byText)).toBeFalsy();
      expect(textOf(byText)).toMatch(/Drop target/);
      expect(textOf(byText)).not.toMatch(/Click me/);
      const byRegex = textOf(await callTool(core, 'browser_find', { session_id: id, regex: 'button "(click|twin)' }));
      expect(byRegex).toMatch(/3 lines/);
      // The lines carry refs the action tools take.
      const clicked = await callTool(core, 'browser_click', { session_id: id, target: refOf(byRegex, /Click me/) });
      expect(clicked.isError, textOf(clicked)).toBeFalsy();
      const runaway = await callTool(core, 'browser_find', { session_id: id, regex: '(.+)+X$' });
      expect(runaway.isError).toBe(true);
      expect(textOf(runaway)).toMatch(/was stopped/);
      const bad = await callTool(core, 'browser_find', { session_id: id, regex: '[' });
      expect(textOf(bad)).toMatch(/not valid/);
    } finally {
      await callTool(core, 'session_close', { session_id: id });
    }
  });

  it('evaluates with a bounded answer: 50 MB comes back as 100,000 characters with its size said', async () => {
    const id = await newSession();
    try {
      const title = await callTool(all, 'browser_evaluate', { session_id: id, function: '() => document.title' });
      expect(JSON.parse(textOf(title))).toBe('Compat page');
      const onElement = await callTool(all, 'browser_evaluate', {
        session_id: id,
        function: '(element) => element.textContent',
        target: '#dst',
      });
      expect(JSON.parse(textOf(onElement))).toBe('Drop target');
      const huge = await callTool(all, 'browser_evaluate', {
        session_id: id,
        function: "() => 'x'.repeat(50 * 1024 * 1024)",
      });
      expect(huge.isError, textOf(huge).slice(0, 300)).toBeFalsy();
      expect(textOf(huge).length).toBeLessThan(101_000);
      expect(textOf(huge)).toMatch(/52,428,802 characters of JSON: only the first 100,000 are shown/);
      const cyclic = await callTool(all, 'browser_evaluate', {
        session_id: id,
        function: '() => { const a = { n: 1 }; a.self = a; return a; }',
      });
      expect(JSON.parse(textOf(cyclic))).toEqual({ n: 1, self: '[seen above]' });
      const throws = await callTool(all, 'browser_evaluate', {
        session_id: id,
        function: '() => { throw new Error("nope") }',
      });
      expect(throws.isError).toBe(true);
      expect(textOf(throws)).toMatch(/threw: Error: nope/);
      const busy = await callTool(all, 'browser_evaluate', { session_id: id, function: '() => { for (;;) {} }' });
      expect(busy.isError).toBe(true);
      expect(textOf(busy)).toMatch(/did not finish within 10 s/);
      // The page goes on after the busy loop was stopped.
      expect(
        JSON.parse(textOf(await callTool(all, 'browser_evaluate', { session_id: id, function: '() => 1 + 1' }))),
      ).toBe(2);
    } finally {
      await callTool(core, 'session_close', { session_id: id });
    }
  });

  it('emulates media the page sees, saves a PDF among the downloads, and refuses resize and run_code_unsafe saying why', async () => {
    const id = await newSession();
    try {
      const media = await callTool(core, 'browser_emulate_media', {
        session_id: id,
        colorScheme: 'dark',
        media: 'print',
        reducedMotion: 'reduce',
      });
      expect(media.isError, textOf(media)).toBeFalsy();
      const matches = await callTool(all, 'browser_evaluate', {
        session_id: id,
        function:
          "() => ['(prefers-color-scheme: dark)', 'print', '(prefers-reduced-motion: reduce)'].map((q) => matchMedia(q).matches)",
      });
      expect(JSON.parse(textOf(matches))).toEqual([true, true, true]);
      await callTool(core, 'browser_emulate_media', { session_id: id, media: null, colorScheme: null });
      const reset = await callTool(all, 'browser_evaluate', {
        session_id: id,
        function: "() => matchMedia('print').matches",
      });
      expect(JSON.parse(textOf(reset))).toBe(false);

      const pdf = await callTool(all, 'browser_pdf_save', { session_id: id, filename: 'compat.pdf' });
      expect(pdf.isError, textOf(pdf)).toBeFalsy();
      const files = JSON.parse(textOf(await callTool(core, 'downloads_list', { session_id: id }))) as {
        filename: string;
        download_url: string;
      }[];
      expect(files.map((f) => f.filename)).toContain('compat.pdf');
      const got = Buffer.from(
        await (await fetch(files.find((f) => f.filename === 'compat.pdf')!.download_url)).arrayBuffer(),
      );
      expect(got.subarray(0, 5).toString()).toBe('%PDF-');

      const resize = await callTool(core, 'browser_resize', { session_id: id, width: 800, height: 600 });
      expect(resize.isError).toBe(true);
      expect(textOf(resize)).toMatch(/live view/);
      const code = await callTool(core, 'browser_run_code_unsafe', { code: 'await page.goto("file:///etc/passwd")' });
      expect(code.isError).toBe(true);
      expect(textOf(code)).toMatch(/outside the session's CDP policy/);
    } finally {
      await callTool(core, 'session_close', { session_id: id });
    }
  });

  it('lists the pdf and evaluate groups only when caps asks for them, and refuses their calls otherwise', async () => {
    const coreNames = (await core.listTools()).tools.map((t) => t.name);
    for (const name of [
      'browser_navigate_back',
      'browser_drag',
      'browser_drop',
      'browser_find',
      'browser_emulate_media',
    ])
      expect(coreNames).toContain(name);
    expect(coreNames).not.toContain('browser_evaluate');
    expect(coreNames).not.toContain('browser_pdf_save');
    const allNames = (await all.listTools()).tools.map((t) => t.name);
    expect(allNames).toEqual(expect.arrayContaining([...coreNames, 'browser_evaluate', 'browser_pdf_save']));
    const pdfOnly = await mcpClient(server, 'bearer', '/api/mcp?caps=pdf');
    try {
      const names = (await pdfOnly.listTools()).tools.map((t) => t.name);
      expect(names).toContain('browser_pdf_save');
      expect(names).not.toContain('browser_evaluate');
    } finally {
      await pdfOnly.close();
    }
    const refused = await callTool(core, 'browser_evaluate', {
      session_id: '00000000-0000-4000-8000-000000000000',
      function: '() => 1',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/caps=evaluate/);
    const badCaps = await fetch(`${server.url}/api/mcp?caps=pdf,root`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(badCaps.status).toBe(400);
    expect(await badCaps.text()).toMatch(/caps must be a comma-separated list of pdf, evaluate/);
  });
});
