// The few browser globals the browser build uses, typed structurally: the
// project compiles without the DOM library (lib ES2022), as src/eval/nnue/kernels-wasm.ts
// types WebAssembly.

interface WebMessageEvent {
  readonly data: unknown;
}
interface WebErrorEvent {
  readonly message?: string;
  preventDefault(): void;
}
export interface WebWorker {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'messageerror', listener: (e: WebMessageEvent) => void): void;
  addEventListener(type: 'error', listener: (e: WebErrorEvent) => void): void;
  terminate(): void;
}
/** `self` inside a dedicated worker. */
export interface WebWorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (e: WebMessageEvent) => void): void;
}
export interface WebResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export const web = globalThis as unknown as {
  Worker: new (url: URL | string, options: { type: 'module'; name?: string }) => WebWorker;
  self: WebWorkerScope;
  fetch(url: URL | string): Promise<WebResponse>;
  crossOriginIsolated?: boolean;
};

/** Fetches `url` as bytes; a failed request is an Error naming the URL and the status. */
export async function fetchBytes(url: URL | string): Promise<Uint8Array> {
  const r = await web.fetch(url);
  if (!r.ok) throw new Error(`${String(url)}: HTTP ${r.status} ${r.statusText}`);
  return new Uint8Array(await r.arrayBuffer());
}
