// The engine's options: typed, range-checked, case-insensitive names, as
// Stockfish's ucioption. Every option listed here does something; handlers run
// on change. The protocol prints them (protocol/info.ts uciOptionLines) and
// passes `setoption` values in as text.

import { checkCommandFields, shownText } from '../core/command-text.js';
import { err, ok, type Result } from '../core/result.js';

export type OptionType = 'check' | 'spin' | 'combo' | 'button' | 'string';
export type OptionValue = boolean | number | string;

/**
 * One option: its kind, default and range, and the handler that runs after the
 * value changed (for a button: when pressed) with the value typed by its kind.
 * A handler accepts the value (with a message for the user, or none) or refuses
 * it with the reason, and the option keeps its previous value.
 */
export type OptionDef =
  | { name: string; type: 'check'; default: boolean; onChange?: (value: boolean) => OptionChange }
  | {
      name: string;
      type: 'spin';
      default: number;
      min: number;
      max: number;
      onChange?: (value: number) => OptionChange;
    }
  | {
      name: string;
      type: 'combo';
      default: string;
      vars: readonly string[];
      onChange?: (value: string) => OptionChange;
    }
  | { name: string; type: 'string'; default: string; onChange?: (value: string) => OptionChange }
  | { name: string; type: 'button'; onChange: () => OptionChange };

/** A handler's verdict on a new value: accepted (an optional message for the user) or refused (why). */
export type OptionChange = Result<string | undefined, 'option-rejected'>;

/** A change accepted with nothing to say. */
export const ACCEPTED: OptionChange = ok(undefined);

type Option = OptionDef & { value: OptionValue };

/** Why a value was rejected. */
export type OptionErrorCode = 'option-unknown' | 'option-value' | 'option-range' | 'option-rejected' | 'command-text';

/** An accepted value may come with a message for the user (e.g. what a file held). */
export type SetResult = Result<{ message?: string }, OptionErrorCode>;

/** What the protocol needs to list an option. */
export interface OptionInfo {
  readonly name: string;
  readonly type: OptionType;
  readonly default?: OptionValue;
  readonly min?: number;
  readonly max?: number;
  readonly vars?: readonly string[];
}

export class Options {
  private readonly byKey = new Map<string, Option>();
  private readonly order: Option[] = [];

  add(def: OptionDef): this {
    // A button has no value; `false` keeps every value a plain primitive.
    const opt: Option = { ...def, value: def.type === 'button' ? false : def.default };
    this.byKey.set(def.name.toLowerCase(), opt);
    this.order.push(opt);
    return this;
  }

  has(name: string): boolean {
    return this.byKey.has(name.toLowerCase());
  }

  private opt(name: string): Option {
    const o = this.byKey.get(name.toLowerCase());
    if (!o) throw new Error(`no such option: ${name}`);
    return o;
  }

  getNumber(name: string): number {
    return this.opt(name).value as number;
  }
  getBool(name: string): boolean {
    return this.opt(name).value as boolean;
  }
  getString(name: string): string {
    return this.opt(name).value as string;
  }

  /**
   * Sets an option from protocol text; `value` is undefined for buttons. A name
   * or value with a control character is refused (src/core/command-text.ts).
   * The text is parsed by the option's kind and its handler gets the typed value.
   */
  set(name: string, value: string | undefined): SetResult {
    const text = checkCommandFields([
      ['option name', name],
      ...(value === undefined ? [] : [[`option ${shownText(name)} value`, value] as const]),
    ]);
    if (!text.ok) return text;
    const o = this.byKey.get(name.trim().toLowerCase());
    if (!o) return err('option-unknown', `No such option: ${name}`);
    switch (o.type) {
      case 'button':
        return settled(o, o.onChange());
      case 'check': {
        const t = (value ?? '').trim().toLowerCase();
        if (t !== 'true' && t !== 'false')
          return err('option-value', `${o.name} must be true or false, got '${value ?? ''}'; keeping ${o.value}`);
        return assign(o, t === 'true', o.onChange);
      }
      case 'spin': {
        const t = (value ?? '').trim();
        if (!/^[+-]?\d+$/.test(t))
          return err(
            'option-value',
            `${o.name} must be an integer in ${o.min}..${o.max}, got '${t}'; keeping ${o.value}`,
          );
        const n = Number(t);
        if (n < o.min || n > o.max) {
          return err('option-range', `${o.name} value ${n} is out of range ${o.min}..${o.max}; keeping ${o.value}`);
        }
        return assign(o, n, o.onChange);
      }
      case 'combo': {
        const t = (value ?? '').trim().toLowerCase();
        const match = o.vars.find((x) => x.toLowerCase() === t);
        if (match === undefined)
          return err(
            'option-value',
            `${o.name} must be one of ${o.vars.join(', ')}, got '${value ?? ''}'; keeping ${o.value}`,
          );
        return assign(o, match, o.onChange);
      }
      case 'string':
        return assign(o, value === undefined || value === '<empty>' ? '' : value, o.onChange);
    }
  }

  /** The options in the order they were added (definitions, not values). */
  list(): OptionInfo[] {
    return this.order.map((o) => ({
      name: o.name,
      type: o.type,
      default: o.type === 'button' ? undefined : o.default,
      min: o.type === 'spin' ? o.min : undefined,
      max: o.type === 'spin' ? o.max : undefined,
      vars: o.type === 'combo' ? o.vars : undefined,
    }));
  }
}

/** Stores `value` and runs the handler with it; a refusal puts the previous value back. */
function assign<T extends OptionValue>(
  o: Option,
  value: T,
  onChange: ((value: T) => OptionChange) | undefined,
): SetResult {
  const previous = o.value;
  o.value = value;
  const change = onChange?.(value) ?? ACCEPTED;
  if (!change.ok) o.value = previous;
  return settled(o, change, previous);
}

/** The result of `set` from a handler's verdict (`kept`: the value a refusal keeps; none for a button). */
function settled(o: Option, change: OptionChange, kept?: OptionValue): SetResult {
  if (change.ok) return ok(change.value ? { message: change.value } : {});
  const keeping = kept === undefined ? '' : `; keeping ${kept === '' ? '<empty>' : kept}`;
  return err('option-rejected', `${o.name}: ${change.error.message}${keeping}`);
}
