/**
 * The page script's hover reader (pageScript.ts calls it once per document): which element, if any,
 * the person's pointer had to rest on for the element they press to be there at all. A menu opened
 * by hovering its button, whose item the person then clicks, replays only with a `hover` step on
 * that button before the click (a submenu's: a hover on each level); a hover step for every move of
 * the mouse would be noise. Two sound signs only, each tying the pressed element (or an ancestor,
 * A) to the hovered one (H):
 *
 * - a CSS rule with `:hover` shows A (it sets display, visibility or a height) and its `:hover` is
 *   on H, an ancestor of the pressed element: `.menu:hover .items { display: block }`;
 * - A was added or had its style, class or hidden changed within REVEAL_MS of the person's trusted
 *   pointer entering H, with no wheel, key, scroll or press in between (a script's menu), A is
 *   neither H nor around it, and both sit in one widget (their closest common ancestor is not the
 *   body), or ARIA ties them: H's aria-controls or aria-owns names an element holding the pressed
 *   one (a menu that a component library draws in a portal at the end of the body is named by its
 *   trigger so).
 *
 * Plain JavaScript in a string for the reason pageScript.ts gives.
 */
export const HOVER_SCRIPT = `function (actionable) {
  var REVEAL_MS = 1000, RULES_MAX = 5000, LEVELS_MAX = 4;
  var SHOWING = ['display', 'visibility', 'height', 'max-height'];
  var over = null, revealedBy = new WeakMap(), quietUntil = -1;
  addEventListener('pointerover', function (e) {
    if (!e.isTrusted || performance.now() < quietUntil) return;
    var t = e.composedPath()[0];
    if (t instanceof Element) over = { el: t.closest(actionable) || t, at: performance.now() };
  }, true);
  // What changes after the person's wheel, key or press is theirs, not the hover's (an offer shown
  // on scroll). A scroll moves elements under a still pointer, and Chromium tells that as pointer
  // events too: no pointer entering counts until a second after the last wheel or scroll.
  var acted = function (e) {
    if (!e.isTrusted) return;
    over = null;
    if (e.type === 'wheel' || e.type === 'scroll') quietUntil = performance.now() + REVEAL_MS;
  };
  addEventListener('wheel', acted, { capture: true, passive: true });
  addEventListener('keydown', acted, true);
  addEventListener('scroll', acted, true);
  addEventListener('pointerdown', acted, true);
  new MutationObserver(function (records) {
    if (!over || performance.now() - over.at > REVEAL_MS) return;
    for (var i = 0; i < records.length; i++) {
      var r = records[i];
      if (r.type === 'attributes') revealedBy.set(r.target, over.el);
      else for (var j = 0; j < r.addedNodes.length; j++)
        if (r.addedNodes[j] instanceof Element) revealedBy.set(r.addedNodes[j], over.el);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class', 'hidden', 'open'] });

  var oneWidget = function (a, b) {
    for (var p = a.parentElement; p; p = p.parentElement)
      if (p.contains(b)) return p !== document.body && p !== document.documentElement;
    return false;
  };
  var hoverRules = function (root) {
    var out = [], seen = 0;
    var walk = function (rules) {
      for (var i = 0; i < rules.length && seen < RULES_MAX; i++, seen++) {
        var rule = rules[i];
        if (rule.cssRules && !rule.selectorText) { walk(rule.cssRules); continue; }
        if (!rule.selectorText || rule.selectorText.indexOf(':hover') < 0 || !rule.style) continue;
        for (var k = 0; k < SHOWING.length; k++)
          if (rule.style.getPropertyValue(SHOWING[k])) { out.push(rule.selectorText); break; }
      }
    };
    var sheets = [].slice.call(root.styleSheets || []).concat(root.adoptedStyleSheets || []);
    for (var s = 0; s < sheets.length; s++) {
      try { walk(sheets[s].cssRules); } catch (e) { /* another origin's sheet: not readable */ }
    }
    return out;
  };
  /** H by a CSS rule: the element whose :hover the rule showing A names, above the pressed element. */
  var byCss = function (a, pressed, selectors) {
    for (var i = 0; i < selectors.length; i++) {
      var parts = selectors[i].split(',');
      for (var j = 0; j < parts.length; j++) {
        var part = parts[j], at = part.indexOf(':hover');
        if (at < 0) continue;
        try {
          if (!a.matches(part)) continue;
          var h = a.closest(part.slice(0, at) + ':hover');
          if (h && h !== pressed && h.contains(pressed) && h !== document.body && h !== document.documentElement) return h;
        } catch (e) { /* a part split inside :is(…) is not a selector */ }
      }
    }
    return null;
  };
  var ids = function (el, attribute) {
    return (el.getAttribute(attribute) || '').split(/\\s+/).filter(Boolean);
  };
  /** H's aria-controls or aria-owns names an element holding the pressed one, at, in or around A. */
  var ariaLinked = function (a, h, pressed) {
    var root = pressed.getRootNode(), named = ids(h, 'aria-controls').concat(ids(h, 'aria-owns'));
    for (var i = 0; i < named.length; i++) {
      var t = root.getElementById ? root.getElementById(named[i]) : null;
      if (t && t.contains(pressed) && (a.contains(t) || t.contains(a))) return true;
    }
    return false;
  };
  var byScript = function (a, pressed) {
    var h = revealedBy.get(a);
    return h && h.isConnected && h !== a && !a.contains(h) && (oneWidget(a, h) || ariaLinked(a, h, pressed)) ? h : null;
  };
  /**
   * The elements to hover, outermost first, for the pressed one to be there: a menu's, then its
   * submenu's (what shows a hovered element is looked for from it up), LEVELS_MAX at most.
   */
  return function revealers(pressed) {
    var selectors = hoverRules(pressed.getRootNode()), found = [];
    for (var a = pressed; a && a !== document.body && found.length < LEVELS_MAX; a = a.parentElement) {
      var h = byCss(a, pressed, selectors) || byScript(a, pressed);
      if (!h || found.indexOf(h) >= 0) continue;
      found.unshift(h);
      pressed = a = h;
    }
    return found;
  };
}`;
