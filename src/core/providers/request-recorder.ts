/**
 * The fetch the provider layer hands pi-ai for each request: the global fetch, remembering the last answer's status
 * and headers and the last network error. pi-ai reports a failure as text; these facts decide what kind of failure
 * it was (provider-error.ts) and how long the server asked us to wait (Retry-After). Nothing of the request or the
 * answer's body is kept.
 */

/** What one request's fetches saw. */
export class RequestRecorder {
  status?: number;
  headers?: Headers;
  networkError?: unknown;

  /** A fetch that records into this recorder. */
  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    try {
      const response = await globalThis.fetch(input, init);
      this.status = response.status;
      this.headers = response.headers;
      this.networkError = undefined;
      if (!response.body) return response;
      // The body's errors (a connection cut mid-reply) are seen too, as they pass through.
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          try {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (e) {
            this.networkError = e;
            controller.error(e);
          }
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (e) {
      this.networkError = e;
      throw e;
    }
  };
}
