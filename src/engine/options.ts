// The engine's options: typed, range-checked, case-insensitive names, as
// Stockfish's ucioption. Every option listed here does something; handlers run
// on change. The protocol prints them (protocol/info.ts uciOptionLines) and
// passes `setoption` values in as text.

import { checkCommandFields, shownText } from '../core/command-text.js';
import { err, ok, type Result } from '../core/result.js';

export type OptionType = 'check' | 'spin' | 'combo' | 'button' | 'string';
export type OptionValue = boolean | number | string;

export interface OptionDef {
  name: string;
  type: OptionType;
  default?: OptionValue;
  min?: number;
  max?: number;
  vars?: readonly string[];
  /**
   * Runs after the value changed (and for buttons when pressed): accepts the
   * value (with a message for the user, or none) or refuses it with the reason,
   * and the option keeps its previous value.
   */
  onChange?: (value: OptionValue) => OptionChange;
}

/** A handler's verdict on a new value: accepted (an optional message for the user) or refused (why). */
export type OptionChange = Result<string | undefined, 'option-rejected'>;

/** A change accepted with nothing to say. */
export const ACCEPTED: OptionChange = ok(undefined);

interface Option extends OptionDef {
  value: OptionValue;
}

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
    const opt: Option = {
      ...def,
      value: def.default ?? (def.type === 'check' ? false : def.type === 'string' ? '' : 0),
    };
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
   */
  set(name: string, value: string | undefined): SetResult {
    const text = checkCommandFields([
      ['option name', name],
      ...(value === undefined ? [] : [[`option ${shownText(name)} value`, value] as const]),
    ]);
    if (!text.ok) return text;
    const o = this.byKey.get(name.trim().toLowerCase());
    if (!o) return err('option-unknown', `No such option: ${name}`);
    let v: OptionValue;
    switch (o.type) {
      case 'button':
        v = true;
        break;
      case 'check': {
        const t = (value ?? '').trim().toLowerCase();
        if (t !== 'true' && t !== 'false')
          return err('option-value', `${o.name} must be true or false, got '${value ?? ''}'; keeping ${o.value}`);
        v = t === 'true';
        break;
      }
      case 'spin': {
        const t = (value ?? '').trim();
        if (!/^[+-]?\d+$/.test(t))
          return err(
            'option-value',
            `${o.name} must be an integer in ${o.min}..${o.max}, got '${t}'; keeping ${o.value}`,
          );
        const n = Number(t);
        if (n < (o.min as number) || n > (o.max as number)) {
          return err('option-range', `${o.name} value ${n} is out of range ${o.min}..${o.max}; keeping ${o.value}`);
        }
        v = n;
        break;
      }
      case 'combo': {
        const t = (value ?? '').trim().toLowerCase();
        const match = o.vars?.find((x) => x.toLowerCase() === t);
        if (match === undefined)
          return err(
            'option-value',
            `${o.name} must be one of ${o.vars?.join(', ')}, got '${value ?? ''}'; keeping ${o.value}`,
          );
        v = match;
        break;
      }
      case 'string':
        v = value === undefined || value === '<empty>' ? '' : value;
        break;
    }
    const previous = o.value;
    if (o.type !== 'button') o.value = v;
    const change = o.onChange?.(v) ?? ACCEPTED;
    if (!change.ok) {
      o.value = previous;
      return err(
        'option-rejected',
        `${o.name}: ${change.error.message}; keeping ${previous === '' ? '<empty>' : previous}`,
      );
    }
    return ok(change.value ? { message: change.value } : {});
  }

  /** The options in the order they were added (definitions, not values). */
  list(): OptionInfo[] {
    return this.order.map(({ name, type, default: d, min, max, vars }) => ({ name, type, default: d, min, max, vars }));
  }
}
