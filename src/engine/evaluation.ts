// The evaluation the engine plays with, chosen by EvalFile and Use NNUE: the
// network EvalFile names, else Kirin's embedded network, else the classical
// evaluation; with Use NNUE off the classical one. A network given as bytes (a
// page's file picker) takes EvalFile's place. The engine hands the network that
// plays to its search threads when it changes (onSwitch) and shows status() on
// uci/isready.

import type { Position } from '../core/position.js';
import { err, ok, type Result } from '../core/result.js';
import { traceClassical } from '../eval/evaluate.js';
import {
  evalNetworkFromBytes,
  isKirinNetwork,
  loadEmbeddedNetwork,
  loadEvalNetwork,
  networkEvaluator,
  traceNetwork,
  type EvalNetwork,
  type EvalNetworkCode,
  type NetworkEvaluator,
} from '../eval/networks.js';
import { CLASSICAL_WIN_RATE, PIKAFISH_WIN_RATE, type WinRateModel } from '../eval/score.js';
import type { OptionChange } from './options.js';

/** Pikafish's default network file name (evaluate.h): EvalFile's default. */
export const DEFAULT_EVAL_FILE = 'pikafish.nnue';

export class EvaluationChoice {
  /** The network that plays (null: the classical evaluation). */
  private playing: EvalNetwork | null = null;
  /** This thread's evaluator of `playing` for `eval` (work slot 0). */
  private evaluator: NetworkEvaluator | null = null;
  private useNnue = true;
  /** The network EvalFile (or loadBytes) gave (null: none - not found, or EvalFile empty). */
  private fileNetwork: EvalNetwork | null = null;
  /** Why EvalFile gave no network (for the status line). */
  private fileNote = '';
  /** The error of the start-up EvalFile, found but unusable. */
  private fileError = '';
  /** Kirin's embedded network: undefined until first needed, null when this build has none. */
  private embedded: EvalNetwork | null | undefined = undefined;
  /** One line saying which evaluation plays and why. */
  private statusLine = '';
  private readonly onSwitch: (net: EvalNetwork | null) => void;

  /**
   * Starts with the network `file` names if it is found, else Kirin's embedded
   * network, else the classical evaluation. `onSwitch` hears of every change of
   * the network that plays, this first choice included.
   */
  constructor(file: string, onSwitch: (net: EvalNetwork | null) => void) {
    this.onSwitch = onSwitch;
    const r = loadEvalNetwork(file);
    if (r.ok) this.fileNetwork = r.value;
    else if (r.error.code === 'not-found') this.fileNote = `no ${file} found`;
    else {
      this.fileError = r.error.message;
      this.fileNote = `${file} is not used: ${r.error.message}`;
    }
    this.select();
  }

  /** The network that plays, null for the classical evaluation. */
  network(): EvalNetwork | null {
    return this.playing;
  }

  /**
   * EvalFile: loads the file and plays it; an empty value drops the file (the
   * embedded network plays). A file that cannot be used is refused with its
   * error, and the evaluation in use stays.
   */
  setFile(file: string): OptionChange {
    if (file === '') {
      this.fileNetwork = null;
      this.fileNote = 'EvalFile is empty';
      this.fileError = '';
      return ok(this.select());
    }
    const r = loadEvalNetwork(file);
    if (!r.ok) {
      // A GUI that sends every option back with its default value (XBoard via
      // uci2wb does) changes nothing here: the evaluation that played plays on.
      if (r.error.code === 'not-found' && file === DEFAULT_EVAL_FILE && !this.fileNetwork) return ok(this.statusLine);
      return err('option-rejected', `${r.error.message}; the evaluation stays: ${this.name()}`);
    }
    return ok(this.useFileNetwork(r.value));
  }

  /** Use NNUE: off plays the classical evaluation, on the network EvalFile (or the build) gives. */
  setUseNnue(on: boolean): OptionChange {
    this.useNnue = on;
    return ok(this.select());
  }

  /**
   * A network given as bytes (Pikafish's format or Kirin's) plays in place of
   * EvalFile's. One that cannot be used is refused with its error, and the
   * evaluation in use stays.
   */
  loadBytes(bytes: Uint8Array, name: string): Result<string, EvalNetworkCode> {
    const r = evalNetworkFromBytes(bytes, name);
    return r.ok ? ok(this.useFileNetwork(r.value)) : r;
  }

  /** Which evaluation plays, with the network file, its description and the kernels. */
  name(): string {
    return this.playing ? `NNUE ${this.playing.label()}, ${this.evaluator?.kernels.name} kernels` : 'classical';
  }

  /** The line shown on uci/isready: which evaluation plays, or why the classical one does. */
  status(): string {
    return this.statusLine;
  }

  /**
   * The win-rate model behind `score cp` and `wdl`: Pikafish's, fitted for its
   * network, while one of its networks plays; the classical evaluation's own
   * otherwise (Kirin's networks learn scores on the classical scale; score.ts).
   */
  winRateModel(): WinRateModel {
    return this.playing && !isKirinNetwork(this.playing) ? PIKAFISH_WIN_RATE : CLASSICAL_WIN_RATE;
  }

  /** The evaluation trace of `pos` (`eval`). */
  trace(pos: Position): string {
    return this.evaluator ? traceNetwork(pos, this.evaluator) : traceClassical(pos);
  }

  private useFileNetwork(net: EvalNetwork): string {
    this.fileNetwork = net;
    this.fileNote = this.fileError = '';
    return this.select();
  }

  /** Kirin's embedded network (decoded once), or null when this build has none or it is damaged. */
  private embeddedNetwork(): EvalNetwork | null {
    if (this.embedded === undefined) {
      const r = loadEmbeddedNetwork();
      this.embedded = r?.ok ? r.value : null;
      if (r && !r.ok) this.fileNote += `; the embedded network is damaged (${r.error.message})`;
    }
    return this.embedded;
  }

  /**
   * Chooses the evaluation that plays: the classical one when Use NNUE is off,
   * else the EvalFile network, else the embedded network, else the classical
   * one; returns the status line.
   */
  private select(): string {
    const net = this.useNnue ? (this.fileNetwork ?? this.embeddedNetwork()) : null;
    if (net !== this.playing) {
      this.playing = net;
      this.evaluator = net ? networkEvaluator(net, 0) : null;
      this.onSwitch(net);
    }
    const note = this.fileNote ? ` (${this.fileNote})` : '';
    if (!this.useNnue) this.statusLine = 'classical evaluation (Use NNUE is off)';
    else if (net && net === this.fileNetwork) this.statusLine = `NNUE evaluation using ${net.label()}`;
    else if (net) this.statusLine = `NNUE evaluation using Kirin's embedded network ${net.label()}${note}`;
    else if (this.fileError) this.statusLine = `ERROR: ${this.fileError}; the classical evaluation plays`;
    else if (this.fileNote === 'EvalFile is empty') this.statusLine = 'classical evaluation (EvalFile is empty)';
    else
      this.statusLine = `classical evaluation: no network found (${DEFAULT_EVAL_FILE}; see "Using the official network" in the README)`;
    return this.statusLine;
  }
}
