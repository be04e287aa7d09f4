import { test } from "node:test";
import assert from "node:assert/strict";
import { buildWebviewHtml, contentSecurityPolicy, escapeHtml, makeNonce } from "../../src/host/webview-html.js";

const csp = "https://file+.vscode-resource.vscode-cdn.net";

test("the CSP allows only the webview's own sources and the nonce", () => {
  assert.equal(
    contentSecurityPolicy(csp, "abc"),
    `default-src 'none'; style-src ${csp} 'nonce-abc'; script-src 'nonce-abc'; font-src ${csp}; img-src ${csp} data:`,
  );
});

test("the shell has one nonce'd external script, no inline script, and the view name", () => {
  const nonce = makeNonce();
  const html = buildWebviewHtml({
    view: "tree",
    cspSource: csp,
    scriptUri: `${csp}/dist/webview.js`,
    styleUris: [`${csp}/dist/webview.css`, `${csp}/dist/codicon.css`],
    nonce,
    title: "Session Tree",
  });
  assert.match(html, /<body data-view="tree">/);
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0][2].trim(), "", "no inline script body");
  assert.match(scripts[0][1], new RegExp(`nonce="${nonce}"`));
  assert.match(scripts[0][1], /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/dist\/webview\.js"/);
  assert.equal([...html.matchAll(/<link rel="stylesheet"/g)].length, 2);
  assert.ok(!/\son\w+=/.test(html), "no inline event handlers");
});

test("nonces are fresh and attribute values are escaped", () => {
  assert.notEqual(makeNonce(), makeNonce());
  assert.match(makeNonce(), /^[A-Za-z0-9_-]{22}$/);
  assert.equal(escapeHtml(`"><script>`), "&quot;&gt;&lt;script&gt;");
  const html = buildWebviewHtml({
    view: "chat",
    cspSource: csp,
    scriptUri: `x"><script>alert(1)</script>`,
    styleUris: [],
    nonce: "n",
    title: "<Chat>",
  });
  assert.equal([...html.matchAll(/<script/g)].length, 1);
  assert.match(html, /<title>&lt;Chat&gt;<\/title>/);
});
