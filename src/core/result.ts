// One way to fail: every function that can reject input (FEN, moves, options,
// time controls, network files) returns a Result instead of throwing or
// returning a bare string. The error carries a stable machine-readable code
// (callers switch on it) and a human-readable message (the engine prints it
// as `info string ERROR: <message>`).

/** A rejected input: a stable code from the caller's domain and a clear message. */
export interface KirinError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}

export type Result<T, C extends string = string> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: KirinError<C> };

/** A successful result. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** A failed result with a code and a message. */
export function err<C extends string>(code: C, message: string): { readonly ok: false; readonly error: KirinError<C> } {
  return { ok: false, error: { code, message } };
}
