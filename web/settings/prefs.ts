// The player's choices kept in this browser (localStorage): notation,
// language, piece set, board theme, colour scheme, sound. A browser that keeps
// nothing (storage refused) keeps the choices for the page's life.

export interface Prefs {
  get(name: string): string | null;
  set(name: string, value: string): void;
}

/** The choices in `storage` (localStorage), each under `kirin.<name>`. */
export function storedPrefs(storage: () => Storage): Prefs {
  const memory = new Map<string, string>();
  return {
    get(name) {
      try {
        return storage().getItem(`kirin.${name}`) ?? memory.get(name) ?? null;
      } catch {
        return memory.get(name) ?? null;
      }
    },
    set(name, value) {
      memory.set(name, value);
      try {
        storage().setItem(`kirin.${name}`, value);
      } catch {
        // A browser that keeps nothing: the choice lasts for this page.
      }
    },
  };
}

/** A stored choice when it is one of `allowed`, else `fallback`. */
export function choice<T extends string>(prefs: Prefs, name: string, allowed: readonly T[], fallback: T): T {
  const v = prefs.get(name);
  return (allowed as readonly string[]).includes(v ?? '') ? (v as T) : fallback;
}
