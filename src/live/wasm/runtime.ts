// The few WebAssembly JavaScript APIs the live CPUs use, typed here: the pure core's tsconfig
// has no DOM library, where TypeScript declares them. Present in every browser and in Node.

/** A WebAssembly.Memory; shared ones have a SharedArrayBuffer and can be posted to workers. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

interface WasmInstance {
  readonly exports: Readonly<Record<string, unknown>>;
}

interface WasmApi {
  Memory: new (d: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => WasmInstance;
  validate(bytes: Uint8Array): boolean;
}

const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

export const WASM_PAGE = 65536;

/**
 * A shared WebAssembly memory of at least `bytes` bytes, or null where there is none (no
 * WebAssembly, or a page without cross-origin isolation, where shared memory is refused).
 */
export function sharedWasmMemory(bytes: number): WasmMemory | null {
  if (!api) return null;
  const pages = Math.max(1, Math.ceil(bytes / WASM_PAGE));
  try {
    return new api.Memory({ initial: pages, maximum: pages, shared: true });
  } catch {
    return null;
  }
}

/** Compiles and instantiates a module whose one import is `env.memory`; returns its exports. */
export function instantiate(
  bytes: Uint8Array,
  memory: WasmMemory,
): Readonly<Record<string, unknown>> {
  if (!api) throw new Error('this JavaScript engine has no WebAssembly');
  const module = new api.Module(bytes);
  return new api.Instance(module, { env: { memory } }).exports;
}

/** Whether the bytes are a valid module (for tests of the encoder). */
export function validWasm(bytes: Uint8Array): boolean {
  return api?.validate(bytes) ?? false;
}

/** A shared memory's buffer, typed as what it is. */
export function bufferOf(memory: WasmMemory): SharedArrayBuffer {
  return memory.buffer as unknown as SharedArrayBuffer;
}
