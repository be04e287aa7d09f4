/** The exported page's stylesheet, inlined into the HTML (the page may load nothing). */
export const EXPORT_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #656d76; --border: #d0d7de; --panel: #f6f8fa;
  --accent: #0969da; --sel: #ddf4ff; --path: #f0f6ff; --user: #eef6ff; --err: #cf222e; --tool: #f6f8fa;
  --summary: #fff8c5; --label: #0969da; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  /* Syntax colours (highlight.js classes), each at least 4.5:1 on the code blocks' background. */
  --hl-keyword: #cf222e; --hl-string: #0a3069; --hl-title: #6639ba; --hl-number: #0550ae; --hl-type: #953800;
  --hl-comment: #57606a; --hl-tag: #116329; --hl-del: #82071e;
  /* An edit's diff rows (at least 4.5:1 too). */
  --diff-add: #116329; --diff-add-bg: #dafbe1; --diff-del: #82071e; --diff-del-bg: #ffebe9;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --border: #30363d; --panel: #161b22;
    --accent: #4493f8; --sel: #15263d; --path: #131d2b; --user: #142033; --err: #f85149; --tool: #161b22;
    --summary: #2d2a12; --label: #195cc8;
    --hl-keyword: #ff7b72; --hl-string: #a5d6ff; --hl-title: #d2a8ff; --hl-number: #79c0ff; --hl-type: #ffa657;
    --hl-comment: #8b949e; --hl-tag: #7ee787; --hl-del: #ffa198;
    --diff-add: #7ee787; --diff-add-bg: #12261e; --diff-del: #ffa198; --diff-del-bg: #2d1517;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { background: var(--bg); color: var(--fg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
button { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--border); border-radius: 6px;
  padding: 3px 10px; cursor: pointer; }
button:hover { border-color: var(--accent); }
button:focus-visible, input:focus-visible, select:focus-visible, .row:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
#app { display: grid; grid-template-rows: auto 1fr; height: 100vh; }
#topbar { display: flex; align-items: center; gap: 10px; padding: 8px 12px; border-bottom: 1px solid var(--border);
  background: var(--panel); min-width: 0; }
#topbar h1 { font-size: 15px; margin: 0; flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
#topbar .meta { color: var(--muted); font-size: 12px; white-space: nowrap; }
#layout { display: flex; min-height: 0; position: relative; }
#sidebar { width: var(--sidebar-width, 360px); min-width: 220px; max-width: 50vw; border-right: 1px solid var(--border); display: flex;
  flex-direction: column; background: var(--bg); min-height: 0; }
body.sidebar-closed #sidebar { display: none; }
#sidebar { position: relative; }
#sidebar-resizer { position: absolute; top: 0; bottom: 0; right: -3px; width: 6px; cursor: col-resize; touch-action: none; z-index: 1; }
#sidebar-resizer:hover, #sidebar-resizer:focus-visible { background: var(--accent); outline: none; }
#controls { display: flex; gap: 6px; padding: 8px; border-bottom: 1px solid var(--border); }
#controls select, #controls input { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--border);
  border-radius: 6px; padding: 3px 6px; min-width: 0; }
#controls input { flex: 1; }
#tree-status { color: var(--muted); font-size: 12px; padding: 2px 8px; }
#tree { flex: 1; overflow: auto; position: relative; min-height: 0; }
#tree-spacer { position: relative; }
.row { position: absolute; left: 0; right: 0; height: 24px; line-height: 24px; white-space: nowrap; overflow: clip;
  cursor: pointer; padding-right: 8px; font-size: 13px; display: flex; align-items: baseline; }
.row > span { flex: none; }
.row > .preview { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.row .branch-mark { font-family: var(--mono); white-space: pre; }
.row:hover { background: var(--panel); }
.row.on-path { background: var(--path); }
.row.selected { background: var(--sel); }
.row .kind { color: var(--muted); font-family: var(--mono); font-size: 12px; margin-right: 4px; }
.row .kind-user { color: var(--accent); }
.row.failed .preview { color: var(--err); }
.row.context { opacity: 0.6; }
.row .label { background: var(--label); color: #fff; border-radius: 8px; padding: 0 6px; font-size: 11px; margin-right: 4px;
  line-height: 18px; flex: 0 1 auto; max-width: 45%; overflow: hidden; text-overflow: ellipsis; }
.row .twisty { width: 14px; text-align: center; color: var(--muted); }
.row .twisty:not(.none):hover { color: var(--accent); }
.row .leaf-mark { color: var(--accent); margin-left: 6px; font-size: 12px; }
.row .branch-mark { color: var(--muted); }
#content { flex: 1; overflow: auto; min-width: 0; padding: 16px 24px 64px; }
#show-earlier { display: block; margin: 0 0 10px; }
#show-earlier[hidden] { display: none; }
#session-info, #message-counts { color: var(--muted); font-size: 12px; margin: 0 0 4px; }
#keys-help { color: var(--muted); font-size: 12px; margin: 0 0 4px; }
button[aria-pressed="true"] { background: var(--sel); border-color: var(--accent); }
#path-header { color: var(--muted); font-size: 12px; margin-bottom: 12px; display: flex; gap: 10px; flex-wrap: wrap; align-items: center; }
.msg { border: 1px solid var(--border); border-radius: 8px; padding: 8px 12px; margin: 0 0 10px; max-width: 980px; overflow-wrap: anywhere; }
.msg.target { box-shadow: 0 0 0 2px var(--accent); }
.msg > .head { font-size: 12px; color: var(--muted); display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 4px; }
.msg > .head .copy-link { margin-left: auto; padding: 0 6px; font-size: 12px; line-height: 18px; background: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.msg > .head .role { font-weight: 600; color: var(--fg); }
.msg.kind-user { background: var(--user); }
.msg.kind-branch_summary, .msg.kind-compaction { background: var(--summary); }
.msg.note { border-style: dashed; padding: 4px 12px; font-size: 12px; color: var(--muted); }
/* A hook's message hidden from the chat: hidden here too until H (or its button) shows it, as on pi's page. */
body:not(.show-hidden) .msg.hidden-msg { display: none; }
.msg.error { border-color: var(--err); }
.msg .error-text { color: var(--err); white-space: pre-wrap; }
.msg .label { background: var(--label); color: #fff; border-radius: 8px; padding: 0 6px; font-size: 11px; }
.md > :first-child { margin-top: 0; } .md > :last-child { margin-bottom: 0; }
.md pre, pre.out { background: var(--tool); border: 1px solid var(--border); border-radius: 6px; padding: 8px; overflow: auto;
  font: 12px/1.45 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; }
.md code { font-family: var(--mono); font-size: 12px; background: var(--panel); padding: 1px 4px; border-radius: 4px; }
.md pre code { background: none; padding: 0; }
pre.out code { font: inherit; }
pre.diff { white-space: pre; overflow-wrap: normal; }
pre.diff > span { display: block; }
pre.diff > .diff-added { color: var(--diff-add); background: var(--diff-add-bg); }
pre.diff > .diff-removed { color: var(--diff-del); background: var(--diff-del-bg); }
pre.diff > .diff-context { color: var(--muted); }
.arg-name { font: 12px var(--mono); color: var(--muted); margin: 6px 0 2px; }
.hljs-keyword, .hljs-selector-tag, .hljs-doctag, .hljs-template-tag { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-meta .hljs-string, .hljs-char.escape_ { color: var(--hl-string); }
.hljs-title, .hljs-title.function_, .hljs-title.class_, .hljs-section { color: var(--hl-title); }
.hljs-number, .hljs-literal, .hljs-attr, .hljs-attribute, .hljs-variable, .hljs-meta, .hljs-symbol,
.hljs-selector-id, .hljs-selector-class, .hljs-link { color: var(--hl-number); }
.hljs-built_in, .hljs-type, .hljs-template-variable { color: var(--hl-type); }
.hljs-comment, .hljs-quote { color: var(--hl-comment); font-style: italic; }
.hljs-tag, .hljs-name, .hljs-selector-pseudo, .hljs-addition, .hljs-bullet { color: var(--hl-tag); }
.hljs-deletion { color: var(--hl-del); }
.hljs-strong { font-weight: 600; } .hljs-emphasis { font-style: italic; }
.md table { border-collapse: collapse; } .md th, .md td { border: 1px solid var(--border); padding: 2px 8px; }
.md blockquote { margin: 0; padding-left: 12px; border-left: 3px solid var(--border); color: var(--muted); }
details { margin: 6px 0; border: 1px solid var(--border); border-radius: 6px; background: var(--tool); }
details > summary { cursor: pointer; padding: 3px 8px; font-size: 12px; font-family: var(--mono); color: var(--muted); }
details > .body { padding: 0 8px 8px; }
details.thinking > .body { font-style: italic; color: var(--muted); white-space: pre-wrap; }
details.is-error > summary { color: var(--err); }
#system { max-width: 980px; }
ul.tools { margin: 4px 0; padding-left: 18px; font-size: 13px; }
ul.tools .tool-name { font-family: var(--mono); font-weight: 600; }
ul.tools ul.params { padding-left: 18px; font-size: 12px; color: var(--muted); }
button.zoom { display: block; padding: 0; margin: 6px 0; border: none; background: none; cursor: zoom-in; max-width: 100%; }
button.zoom > img.attached { margin: 0; }
#image-zoom { max-width: 96vw; max-height: 96vh; padding: 8px; border: 1px solid var(--border); border-radius: 8px;
  background: var(--bg); color: var(--fg); cursor: zoom-out; }
#image-zoom::backdrop { background: rgba(0,0,0,0.7); }
#image-zoom img { display: block; max-width: calc(96vw - 24px); max-height: calc(96vh - 56px); margin-top: 8px; object-fit: contain; }
img.attached { max-width: 100%; max-height: 480px; border: 1px solid var(--border); border-radius: 6px; display: block; margin: 6px 0; }
#sidebar-backdrop { display: none; }
@media (max-width: 800px) {
  #sidebar { position: absolute; z-index: 20; top: 0; bottom: 0; left: 0; width: min(88vw, 360px); max-width: none;
    box-shadow: 4px 0 16px rgba(0,0,0,0.25); }
  body.sidebar-open #sidebar-backdrop { display: block; position: absolute; inset: 0; z-index: 10; background: rgba(0,0,0,0.3); }
  #content { padding: 12px; }
  #topbar .meta, #keys-help, #sidebar-resizer { display: none; }
}
@media print {
  /* Paper gets the path as one long document: no tree, no buttons, no scrolling panes. */
  #app, #layout { display: block; height: auto; }
  #sidebar, #sidebar-resizer, #sidebar-backdrop, #topbar button, #image-zoom, #show-earlier, .copy-link, #keys-help { display: none !important; }
  #topbar { background: none; }
  #topbar h1 { white-space: normal; }
  #content { overflow: visible; padding: 12px 0; }
  .msg { break-inside: avoid-page; max-width: none; }
  .msg.target { box-shadow: none; }
  /* Folds print open (thinking, tool calls and output, the system prompt): paper cannot be clicked. Chromium does
     it here; the page script opens them before printing for the others. */
  details::details-content { content-visibility: visible; display: block; }
}
@media (prefers-reduced-motion: no-preference) { .msg.target { transition: box-shadow 0.2s; } }
`;
