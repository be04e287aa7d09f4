/**
 * One fake model server shared by the tests of a suite: the `describe` block (or file) that calls
 * `fakeServerForSuite` starts it before its tests, resets it before each test (so replies a failed test left
 * queued, a replaced default reply and the request log do not leak into the next) and closes it after them.
 */
import { after, before, beforeEach } from "node:test";
import { startFakeOpenAI } from "./fake-openai-server.js";
import type { FakeServer } from "./fake-provider-common.js";

/**
 * The suite's fake server (OpenAI unless `start` says otherwise). The object stands in for the server that
 * `before` starts, so the suite can hold it in a `const` and its tests use it as the server itself.
 */
export function fakeServerForSuite(start: () => Promise<FakeServer> = startFakeOpenAI): FakeServer {
  let server: FakeServer | undefined;
  const current = (): FakeServer => {
    if (!server) throw new Error("the suite's fake server is only there inside its tests (it starts in before())");
    return server;
  };
  before(async () => {
    server = await start();
  });
  beforeEach(() => current().reset());
  after(async () => {
    await server?.close();
  });
  return {
    get baseURL() {
      return current().baseURL;
    },
    get port() {
      return current().port;
    },
    get requests() {
      return current().requests;
    },
    get calls() {
      return current().calls;
    },
    enqueue: (...replies) => current().enqueue(...replies),
    setDefault: (fn) => current().setDefault(fn),
    pending: () => current().pending(),
    reset: () => current().reset(),
    close: () => current().close(),
  };
}
