// The two kinds of network the engine plays with, behind one surface: Pikafish's
// (`pikafish.nnue`, src/eval/nnue) and Kirin's own (`.knet`, src/eval/kirinnet).
// Files are told apart by their first bytes (KIRINNET magic, else Pikafish's
// format, zstd-compressed or plain); the engine, the search threads and the
// `eval` command use only what this module exports.

import type { Position } from '../core/position.js';
import type { Result } from '../core/result.js';
import { isKirinNet, type KnetLoadCode } from './kirinnet/format.js';
import { KirinEvaluator, KirinNetwork, type KirinNetHandle } from './kirinnet/network.js';
import { traceKirinNet } from './kirinnet/trace.js';
import { openNetworkFile, readEmbeddedNetwork } from '#platform/files';
import { MAX_PAYLOAD_BYTES, networkFileError, type NnueLoadCode } from './nnue/loader.js';
import { NnueEvaluator, NnueNetwork, type NetworkHandle } from './nnue/network.js';
import { traceNnue } from './nnue/trace.js';

export type EvalNetwork = NnueNetwork | KirinNetwork;
export type EvalNetworkCode = NnueLoadCode | KnetLoadCode;
export type EvalNetworkHandle = { readonly kind: 'pikafish'; readonly handle: NetworkHandle } | KirinNetHandle;

/** What the search asks of a network evaluation (one per thread, in its own work slot). */
export interface NetworkEvaluator {
  readonly kernels: { readonly name: string };
  /** Static evaluation, side to move, internal units, with evaluate()'s post-processing. */
  evaluate(pos: Position, optimism: number): number;
}

/** A network from a file's bytes (`name` for messages): Kirin's format by its magic, else Pikafish's. */
export function evalNetworkFromBytes(bytes: Uint8Array, name: string): Result<EvalNetwork, EvalNetworkCode> {
  return isKirinNet(bytes) ? KirinNetwork.fromBytes(bytes, name) : NnueNetwork.fromBytes(bytes, name);
}

/** The name Kirin's embedded network goes by in labels and messages. */
const EMBEDDED_NETWORK_NAME = 'kirin.knet';

/**
 * Kirin's embedded network (src/eval/kirinnet/kirin.knet, shipped with the
 * build): null when this build has none, else the network or why its bytes are
 * refused. Decoded afresh on every call; callers keep what they need.
 */
export function loadEmbeddedNetwork(): Result<EvalNetwork, EvalNetworkCode> | null {
  const bytes = readEmbeddedNetwork();
  return bytes ? evalNetworkFromBytes(bytes, EMBEDDED_NETWORK_NAME) : null;
}

/** Finds (as Pikafish does: as given, beside the program, in the working directory) and loads a network file. */
export function loadEvalNetwork(given: string, programDirs?: readonly string[]): Result<EvalNetwork, EvalNetworkCode> {
  const file = openNetworkFile(given, MAX_PAYLOAD_BYTES, programDirs);
  // Not found, unreadable, too large: worded as the Pikafish loader words them.
  if (!file.ok) return networkFileError(file.error);
  // Kirin's networks are small: read whole. Pikafish's are read in pieces.
  if (!isKirinNet(file.value.head)) return NnueNetwork.fromFile(file.value);
  const bytes = file.value.readAll();
  if (!bytes.ok) return networkFileError(bytes.error);
  return KirinNetwork.fromBytes(bytes.value, file.value.path);
}

export function networkHandle(net: EvalNetwork): EvalNetworkHandle {
  return net instanceof KirinNetwork ? net.handle() : { kind: 'pikafish', handle: net.handle() };
}

export function networkFromHandle(h: EvalNetworkHandle): EvalNetwork {
  return h.kind === 'kirin' ? KirinNetwork.fromHandle(h) : NnueNetwork.fromHandle(h.handle);
}

/** The evaluator of `net` in work slot `slot` (0: the protocol thread, i + 1: search thread i). */
export function networkEvaluator(net: EvalNetwork, slot: number): NetworkEvaluator {
  return net instanceof KirinNetwork ? new KirinEvaluator(net, slot) : new NnueEvaluator(net, slot);
}

/** The `eval` text of `pos` with `ev` (an evaluator made by networkEvaluator). */
export function traceNetwork(pos: Position, ev: NetworkEvaluator): string {
  return ev instanceof KirinEvaluator ? traceKirinNet(pos, ev) : traceNnue(pos, ev as NnueEvaluator);
}

/** True for Kirin's own networks (trained on Kirin's classical scale), false for Pikafish's. */
export function isKirinNetwork(net: EvalNetwork): boolean {
  return net instanceof KirinNetwork;
}
