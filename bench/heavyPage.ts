/**
 * A heavy page like the one whose snapshots timed out (issue 36): 5,000 links, tables of inputs and
 * a form, about 400 KB of HTML. `scale` multiplies the links and rows (6: about 3 MB, issue 44's).
 */
export function heavyPage(scale = 1): string {
  const links = Array.from(
    { length: 5000 * scale },
    (_, i) => `<li><a href="/item/${i}" title="Item ${i}">Catalogue item number ${i}</a></li>`,
  ).join('');
  const rows = Array.from(
    { length: 800 * scale },
    (_, i) =>
      `<tr><th scope="row">Order ${i}</th><td>${(i * 7.31).toFixed(2)} EUR</td><td>${i % 3 ? 'shipped' : 'pending'}</td><td><input name="qty${i}" value="${i % 9}" aria-label="Quantity ${i}"></td></tr>`,
  ).join('');
  return `<!doctype html><html><head><title>Heavy page</title></head><body>
<h1>Catalogue</h1><nav><ul>${links}</ul></nav>
<table><caption>Orders</caption><thead><tr><th>Order</th><th>Total</th><th>State</th><th>Quantity</th></tr></thead><tbody>${rows}</tbody></table>
<form><h2>Contact</h2><label>Name <input name="name"></label><label>Email <input type="email" name="email"></label>
<label>Topic <select name="topic"><option>Order</option><option>Refund</option><option>Other</option></select></label>
<label><input type="checkbox" name="copy"> Send me a copy</label><textarea name="body" aria-label="Message"></textarea><button>Send</button></form>
</body></html>`;
}
