/*
 * Runs inside the headless page next to the webview bundle: a fake acquireVsCodeApi and the timing probes
 * bench/webview/measure-webview.ts calls. Plain browser JavaScript (no build step), loaded before the bundle.
 */
/* global window, document, performance, requestAnimationFrame, setTimeout, MutationObserver, Event */
(function () {
  "use strict";
  var posted = [];
  var state;
  window.acquireVsCodeApi = function () {
    return {
      postMessage: function (message) {
        posted.push(message);
      },
      getState: function () {
        return state;
      },
      setState: function (next) {
        state = next;
      },
    };
  };

  /** Resolves when the frame after now has been painted: rAF runs before paint, a task queued in it after. */
  function afterPaint(t0) {
    return new Promise(function (resolve) {
      requestAnimationFrame(function () {
        var raf = performance.now() - t0;
        setTimeout(function () {
          resolve({ raf: raf, painted: performance.now() - t0 });
        }, 0);
      });
    });
  }

  function rowCount() {
    return document.querySelectorAll(".tree-row").length;
  }

  window.__bench = {
    posted: posted,
    snapshot: undefined,
    ready: function () {
      return posted.some(function (m) {
        return m && m.type === "ready";
      });
    },
    rowCount: rowCount,
    /** Posts the stored snapshot and resolves once rows exist and the next frame has run. */
    firstPaint: function () {
      var snapshot = window.__bench.snapshot;
      return new Promise(function (resolve) {
        var root = document.getElementById("root") || document.body;
        var t0 = performance.now();
        var done = false;
        var observer = new MutationObserver(function () {
          if (done || rowCount() === 0) return;
          done = true;
          observer.disconnect();
          afterPaint(t0).then(resolve);
        });
        observer.observe(root, { childList: true, subtree: true });
        window.postMessage(snapshot, "*");
      });
    },
    /** Sets the search field to `text` as one keystroke would and times until the next painted frame. */
    searchKeystroke: function (text) {
      var field = document.querySelector(".search");
      if (!field) throw new Error("no search field (.search) in the tree view");
      var t0 = performance.now();
      field.value = text;
      field.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      return afterPaint(t0);
    },
    /** Switches the filter dropdown and times until the next painted frame. */
    setFilter: function (value) {
      var dropdown = document.querySelector(".filter");
      if (!dropdown) throw new Error("no filter dropdown (.filter) in the tree view");
      var t0 = performance.now();
      dropdown.value = value;
      dropdown.dispatchEvent(new Event("change", { bubbles: true, composed: true }));
      return afterPaint(t0);
    },
  };
})();
