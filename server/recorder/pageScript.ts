import { inPage, TEXT_MAX_CHARS } from '../agent/elementSelectors.ts';
import { HOVER_SCRIPT } from './hoverScript.ts';

/** Elements a recorded element may be replaced by: what a person means by clicking a button's icon is the button. */
const ACTIONABLE =
  'a,button,input,select,textarea,label,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option]';

/**
 * The page side of the recorder, one copy per document of every frame and tab, run in an isolated
 * world named for this recording (the page's own scripts cannot see that world, its globals or the
 * binding in it: see server/recorder/browserWatch.ts). It listens, in the capture phase, for the
 * person's trusted DOM events only (`isTrusted`: an event a script made or dispatched never counts)
 * and sends each as one RecorderMessage (contract/recorder.ts) through the binding. Selectors come
 * from the agent's own in-page reader (server/agent/elementSelectors.ts inPage), so a recorded step
 * names its element as the agent's do.
 *
 * A scroll event is trusted even when the page's own script scrolled: a scroll counts only shortly
 * after the person's trusted wheel or scroll key, or while they hold a scrollbar, and is sent once,
 * where it came to rest. A hover is sent only before a press it revealed (hoverScript.ts).
 *
 * A password field's value is never sent: only that it was typed into, and the field's name.
 *
 * Plain JavaScript in a string, not a compiled function: tsx compiles with keepNames, which would
 * wrap named helpers in a `__name` call the page lacks (inPage avoids those by construction).
 */
export function pageScript(names: { state: string; binding: string }): string {
  return `(function (state, send, describe, textMax, actionable, hoverReader) {
  if (globalThis[state]) return;
  var revealers = hoverReader(actionable);
  var me = {
    els: [], seq: 0, sent: new WeakMap(), labelFor: null, enterAt: -1, down: null,
    // Scrolling: until when a scroll is the person's (intentUntil), a press held on a scrollbar (onBar),
    // and the scroll waiting for the person to stop (scrolled: its element, null for the window).
    intentUntil: -1, onBar: false, barPress: false, scrolled: undefined, settle: 0, roots: new WeakSet()
  };
  globalThis[state] = me;
  var NOT_TEXT = ['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image', 'range', 'color'];
  // A scroll counts within this long of the person's wheel, scroll key or scrollbar press (a smooth
  // scroll goes on after its wheel stops); it is sent once nothing scrolled for SETTLE_MS.
  var INTENT_MS = 1000, SETTLE_MS = 300;
  var SCROLL_KEYS = ['PageDown', 'PageUp', ' ', 'ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End'];
  // Where those keys do something else than scroll (move a caret, choose an option, press a button).
  var KEYS_OWNED = 'input,textarea,select,button,[contenteditable]:not([contenteditable=false]),[role=slider],[role=listbox],[role=combobox],[role=menu],[role=menubar],[role=grid],[role=tablist],[role=radiogroup],[role=tree],[role=spinbutton]';
  var h = {
    frame: function () {
      var path = [];
      try {
        for (var w = window; w !== w.parent; w = w.parent) {
          var all = w.parent.frames, i = 0;
          while (i < all.length && all[i] !== w) i++;
          path.unshift(i);
        }
      } catch (e) { return []; }
      return path;
    },
    origin: function (e) {
      var t = e.composedPath()[0];
      return t instanceof Element ? t : null;
    },
    selectors: function (el) {
      var f = describe(el, textMax);
      var list = f.css.concat(f.rest.map(function (s) { return [s]; }));
      // Chrome's Recorder adds pierce/: CSS that looks inside every shadow root. The first chain's
      // own part (the element's #id when that is unique in its root) names it best across roots.
      var first = f.css[0];
      if (first) list.push(['pierce/' + first[first.length - 1]]);
      return list;
    },
    keep: function (el) {
      var seq = me.seq++;
      me.els[seq % 32] = el;
      return seq;
    },
    send: function (msg) {
      // A scroll still settling comes first: it happened before whatever is sent now.
      h.scrollDone();
      h.post(msg);
    },
    post: function (msg) {
      msg.frame = h.frame();
      try { send(JSON.stringify(msg)); } catch (e) { /* nothing to tell anyone */ }
    },
    round: function (n) { return Math.round(n * 100) / 100; },
    /** The press is on a scrollbar: the window's (outside the root's client area) or its element's. */
    onScrollbar: function (e) {
      var root = document.documentElement;
      if (e.clientX >= root.clientWidth || e.clientY >= root.clientHeight) return true;
      var el = h.origin(e);
      if (!el) return false;
      var box = el.getBoundingClientRect();
      var x = e.clientX - box.left - el.clientLeft, y = e.clientY - box.top - el.clientTop;
      return (el.scrollHeight > el.clientHeight && x >= el.clientWidth) || (el.scrollWidth > el.clientWidth && y >= el.clientHeight);
    },
    /** A scroll the person caused: told once it settles, one message for its final position. */
    scrolled: function (e) {
      if (!me.onBar && performance.now() > me.intentUntil) return;
      var t = e.target;
      var el = t === document || t === document.documentElement || t === document.scrollingElement ? null : t;
      if (el !== null && !(el instanceof Element)) return;
      if (me.scrolled !== undefined && me.scrolled !== el) h.scrollDone();
      me.scrolled = el;
      clearTimeout(me.settle);
      me.settle = setTimeout(h.scrollDone, SETTLE_MS);
    },
    scrollDone: function () {
      var el = me.scrolled;
      if (el === undefined) return;
      me.scrolled = undefined;
      clearTimeout(me.settle);
      if (el === null) return h.post({ kind: 'scroll', x: h.round(scrollX), y: h.round(scrollY) });
      if (el.isConnected) h.post({ kind: 'scroll', selectors: h.selectors(el), x: h.round(el.scrollLeft), y: h.round(el.scrollTop) });
    },
    /**
     * change and scroll are not composed events: one in an open shadow root never reaches the
     * window. Each shadow root a trusted press, focus, key or wheel came through gets their
     * listeners too (once), before the change or scroll it leads to.
     */
    watchRoots: function (e) {
      var path = e.composedPath();
      for (var i = 0; i < path.length; i++) {
        var root = path[i];
        if (root instanceof ShadowRoot && !me.roots.has(root)) {
          me.roots.add(root);
          root.addEventListener('change', onChange, true);
          root.addEventListener('scroll', onScroll, true);
        }
      }
    },
    isText: function (el) {
      return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && NOT_TEXT.indexOf(el.type) < 0) ||
        (el instanceof HTMLElement && el.isContentEditable);
    },
    change: function (el) {
      if (!(h.isText(el) || el instanceof HTMLSelectElement)) return;
      var value = 'value' in el ? String(el.value) : el.innerText;
      if (me.sent.get(el) === value) return;
      me.sent.set(el, value);
      var secret = el instanceof HTMLInputElement && el.type === 'password';
      var field = String(el.getAttribute('name') || el.id || el.getAttribute('autocomplete') || '').slice(0, 200);
      var msg = { kind: 'change', selectors: h.selectors(el), seq: h.keep(el), secret: secret, field: field };
      if (!secret) msg.value = value;
      h.send(msg);
    },
    click: function (e, kind) {
      var origin = h.origin(e);
      // A press on a scrollbar scrolls; its click is not the person's.
      var bar = me.barPress && e.detail > 0;
      me.barPress = false;
      if (!origin || bar) return;
      var el = origin.closest(actionable) || origin;
      // A file input's chooser is replaced by the upload step; a select's list by its change step.
      if ((el instanceof HTMLInputElement && el.type === 'file') || el instanceof HTMLSelectElement || el instanceof HTMLOptionElement) return;
      // Enter in a field clicks the form's submit button for it: the key step replays that already.
      if (e.detail === 0 && performance.now() - me.enterAt < 100) return;
      if (kind === 'click') {
        // A label's click clicks its control too: one step, the label's.
        if (me.labelFor === el) { me.labelFor = null; return; }
        me.labelFor = el instanceof HTMLLabelElement ? el.control : null;
        if (me.labelFor) setTimeout(function () { me.labelFor = null; }, 0);
      }
      var box = el.getBoundingClientRect();
      var keyboard = e.detail === 0 && e.clientX === 0 && e.clientY === 0;
      h.send({
        kind: kind, selectors: h.selectors(el), seq: me.down && me.down.el === el ? me.down.seq : h.keep(el),
        offsetX: Math.round((keyboard ? box.width / 2 : e.clientX - box.left) * 100) / 100,
        offsetY: Math.round((keyboard ? box.height / 2 : e.clientY - box.top) * 100) / 100
      });
    }
  };
  var guard = function (fn) {
    return function (e) {
      if (!e.isTrusted) return;
      try { fn(e); } catch (err) { /* an element the reader cannot describe: not recorded */ }
    };
  };
  // The element under the pointer, told before its click: the server reads its aria selector
  // while the page is still there (a link's click may navigate it away before the click is taken).
  addEventListener('pointerdown', guard(function (e) {
    h.watchRoots(e);
    me.onBar = me.barPress = h.onScrollbar(e);
    if (me.onBar) return;
    var origin = h.origin(e);
    if (!origin) return;
    var el = origin.closest(actionable) || origin;
    me.down = { el: el, seq: h.keep(el) };
    h.send({ kind: 'pointer', seq: me.down.seq });
    // A menu item shown only while the pointer rested on its menu: its hovers, steps before the
    // click's (told after the press, whose aria read starts at once, hovers or not: hoverScript.ts).
    var hovered = [];
    try { hovered = revealers(el); } catch (err) { /* no hover read: the press is still told */ }
    hovered.forEach(function (on) { h.send({ kind: 'hover', selectors: h.selectors(on), seq: h.keep(on) }); });
  }), true);
  var release = guard(function () {
    // A scrollbar let go: the scroll it made may still be settling.
    if (me.onBar) me.intentUntil = performance.now() + INTENT_MS;
    me.onBar = false;
  });
  addEventListener('pointerup', release, true);
  addEventListener('pointercancel', release, true);
  addEventListener('wheel', guard(function (e) {
    h.watchRoots(e);
    me.intentUntil = performance.now() + INTENT_MS;
  }), { capture: true, passive: true });
  var onScroll = guard(h.scrolled);
  addEventListener('scroll', onScroll, true);
  addEventListener('pagehide', function () { h.scrollDone(); }, true);
  addEventListener('focusin', guard(h.watchRoots), true);
  addEventListener('click', guard(function (e) { h.click(e, 'click'); }), true);
  addEventListener('dblclick', guard(function (e) { h.click(e, 'doubleClick'); }), true);
  var onChange = guard(function (e) {
    var el = h.origin(e);
    if (!el) return;
    if (el instanceof HTMLInputElement && el.type === 'file') {
      if (el.files && el.files.length) h.send({ kind: 'upload', selectors: h.selectors(el), seq: h.keep(el), file: el.files[0].name });
      return;
    }
    h.change(el);
  });
  addEventListener('change', onChange, true);
  addEventListener('keydown', guard(function (e) {
    h.watchRoots(e);
    var el = h.origin(e);
    if (SCROLL_KEYS.indexOf(e.key) >= 0 && !(el && (el.closest(KEYS_OWNED) || (el instanceof HTMLElement && el.isContentEditable))))
      me.intentUntil = performance.now() + INTENT_MS;
    if (['Enter', 'Escape', 'Tab'].indexOf(e.key) < 0) return;
    var text = el && h.isText(el);
    var field = text || el instanceof HTMLSelectElement;
    // Tab counts when it leaves a field; Enter when it submits one (in a textarea it is a new line).
    if (e.key === 'Tab' && !field) return;
    if (e.key === 'Enter' && !(text && !(el instanceof HTMLTextAreaElement) && !el.isContentEditable)) return;
    if (field) h.change(el);
    if (e.key === 'Enter') me.enterAt = performance.now();
    h.send({ kind: 'key', key: e.key });
  }), true);
})(${JSON.stringify(names.state)}, globalThis[${JSON.stringify(names.binding)}], ${inPage.toString()}, ${TEXT_MAX_CHARS}, ${JSON.stringify(ACTIONABLE)}, ${HOVER_SCRIPT});`;
}
