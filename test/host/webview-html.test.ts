import { test } from "node:test";
import assert from "node:assert/strict";
import { escapeHtml } from "../../src/core/escape-html.js";
import {
  buildUnavailableHtml,
  buildWebviewHtml,
  contentSecurityPolicy,
  makeNonce,
} from "../../src/host/views/webview-html.js";

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
  assert.equal(escapeHtml(`"><script>'&`), "&#34;&#62;&#60;script&#62;&#39;&#38;");
  const html = buildWebviewHtml({
    view: "chat",
    cspSource: csp,
    scriptUri: `x"><script>alert(1)</script>`,
    styleUris: [],
    nonce: "n",
    title: "<Chat>",
  });
  assert.equal([...html.matchAll(/<script/g)].length, 1);
  assert.match(html, /<title>&#60;Chat&#62;<\/title>/);
});

test("a view that did not load says so and offers Reload View as a command link, without any script", () => {
  const uri = `command:agentTree.reloadViews?${encodeURIComponent(JSON.stringify(["chat"]))}`;
  const html = buildUnavailableHtml({ cspSource: csp, nonce: "n1", title: "Chat <1>", reloadCommandUri: uri });
  assert.doesNotMatch(html, /<script/);
  assert.match(html, /role="alert">The Chat &#60;1&#62; view did not load\./);
  assert.match(html, /<a class="reload" href="command:agentTree\.reloadViews\?%5B%22chat%22%5D">Reload View<\/a>/);
  assert.ok(html.includes(escapeHtml(contentSecurityPolicy(csp, "n1"))), "the same strict CSP as the views");
});
