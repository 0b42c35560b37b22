// The settings room (the 设置 tab): the page's language, the notation, the
// piece set, the board theme, light or dark, sound; Kirin's search thread
// (Threads, Hash), the Repetition Rule, and the evaluation: Kirin's network,
// Classical, or a network loaded from a URL or a file, with the static
// evaluation of the position shown.

import { LANGUAGES, type Language } from '../i18n/catalog.js';
import { NOTATIONS, REPETITION_RULES, prepareNetworkDecoder, type Notation } from '../../src/browser/index.js';
import type { AnalysisRoom } from '../analysis/engine.js';
import { BOARD_THEMES, PIECE_SETS, type BoardTheme, type PieceSet } from '../board/drawing.js';
import type { BoardView } from '../board/view.js';
import { $ } from '../dom.js';
import type { PageContext } from '../page.js';
import { choice, type Prefs } from './prefs.js';

const COLOUR_SCHEMES = ['auto', 'light', 'dark'] as const;
type ColourScheme = (typeof COLOUR_SCHEMES)[number];

export interface SettingsDeps {
  prefs: Prefs;
  board: BoardView;
  analysis: AnalysisRoom;
  /** Switches the page's language (the shell translates the labels). */
  setLanguage(lang: Language): void;
}

/** Fills a <select> with options (value, label key) and selects `value`. */
function fillSelect(
  sel: HTMLSelectElement,
  values: readonly string[],
  label: (v: string) => string,
  value: string,
): void {
  sel.replaceChildren(...values.map((v) => new Option(label(v), v, false, v === value)));
  sel.value = value;
}

/** Mounts the 设置 tab; returns the board's look as chosen (the piece set and theme: the board editor draws in it). */
export function mountSettings(ctx: PageContext, deps: SettingsDeps): () => { set: PieceSet; theme: BoardTheme } {
  const { prefs, board, analysis } = deps;
  const t = ctx.t;
  const engine = ctx.engine;
  // The WebAssembly zstd decoder compiles meanwhile, for the network a player may load.
  const decoderReady = prepareNetworkDecoder();
  // The piece set follows the language (simplified characters for Simplified Chinese) until the player picks one.
  const languageSet = (): PieceSet => (ctx.language === 'zh-Hans' ? 'simplified' : 'traditional');
  let pieces: PieceSet = choice(prefs, 'pieces', Object.keys(PIECE_SETS) as PieceSet[], languageSet());
  let theme: BoardTheme = choice(prefs, 'board', Object.keys(BOARD_THEMES) as BoardTheme[], 'wood');
  let scheme: ColourScheme = choice(prefs, 'theme', COLOUR_SCHEMES, 'auto');
  const applyScheme = (): void => {
    if (scheme === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = scheme;
  };
  board.setLook(pieces, theme);
  applyScheme();

  const notation = $<HTMLSelectElement>('notation');
  const language = $<HTMLSelectElement>('language');
  const pieceSet = $<HTMLSelectElement>('piece-set');
  const boardTheme = $<HTMLSelectElement>('board-theme');
  const colours = $<HTMLSelectElement>('colour-scheme');
  const rule = $<HTMLSelectElement>('rule');
  /** The choices' labels, in the language shown. */
  const fill = (): void => {
    fillSelect(notation, NOTATIONS, (n) => t(`settings.notation.${n}`), ctx.notation);
    fillSelect(language, LANGUAGES, (l) => t(`settings.language.${l}`), ctx.language);
    fillSelect(pieceSet, Object.keys(PIECE_SETS), (s) => t(`settings.pieces.${s}`), pieces);
    fillSelect(boardTheme, Object.keys(BOARD_THEMES), (s) => t(`settings.board.${s}`), theme);
    fillSelect(colours, COLOUR_SCHEMES, (s) => t(`settings.scheme.${s}`), scheme);
    fillSelect(rule, REPETITION_RULES, (r) => t(`settings.rule.${r}`), engine.ruleConfig().repetitionRule);
    $<HTMLInputElement>('sound').checked = prefs.get('sound') !== 'off';
    $<HTMLInputElement>('threads').value = String(engine.options.getNumber('Threads'));
    $<HTMLInputElement>('hash').value = String(engine.options.getNumber('Hash'));
  };
  fill();
  ctx.onChange((c) => {
    // The Repetition Rule may be chosen in the 对弈 tab too.
    rule.value = engine.ruleConfig().repetitionRule;
    if (c.kind !== 'view') return;
    if (prefs.get('pieces') === null && pieces !== languageSet()) {
      pieces = languageSet();
      board.setLook(pieces, theme);
    }
    fill();
  });

  notation.addEventListener('change', () => {
    prefs.set('notation', notation.value);
    ctx.setNotation(notation.value as Notation);
  });
  language.addEventListener('change', () => {
    prefs.set('language', language.value);
    deps.setLanguage(language.value as Language);
  });
  pieceSet.addEventListener('change', () => {
    pieces = pieceSet.value as PieceSet;
    prefs.set('pieces', pieces);
    board.setLook(pieces, theme);
  });
  boardTheme.addEventListener('change', () => {
    theme = boardTheme.value as BoardTheme;
    prefs.set('board', theme);
    board.setLook(pieces, theme);
  });
  colours.addEventListener('change', () => {
    scheme = colours.value as ColourScheme;
    prefs.set('theme', scheme);
    applyScheme();
  });
  $('scheme-toggle').addEventListener('click', () => {
    // The header's switch: light <-> dark, from what is shown now.
    const dark = scheme === 'dark' || (scheme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
    scheme = dark ? 'light' : 'dark';
    prefs.set('theme', scheme);
    colours.value = scheme;
    applyScheme();
  });
  $<HTMLInputElement>('sound').addEventListener('change', (ev) => {
    prefs.set('sound', (ev.target as HTMLInputElement).checked ? 'on' : 'off');
    renderSoundToggle();
  });
  const renderSoundToggle = (): void => {
    const on = prefs.get('sound') !== 'off';
    const b = $('sound-toggle');
    b.dataset.on = on ? 'yes' : 'no';
    b.setAttribute('aria-pressed', String(on));
    b.title = t(on ? 'settings.sound-on' : 'settings.sound-off');
  };
  $('sound-toggle').addEventListener('click', () => {
    prefs.set('sound', prefs.get('sound') === 'off' ? 'on' : 'off');
    $<HTMLInputElement>('sound').checked = prefs.get('sound') !== 'off';
    renderSoundToggle();
  });
  renderSoundToggle();
  ctx.onChange((c) => {
    if (c.kind === 'view') renderSoundToggle();
  });

  const optionError = (r: { ok: boolean; error?: { message: string } }): void => {
    $('settings-error').textContent = r.ok ? '' : (r.error?.message ?? '');
  };
  rule.addEventListener('change', () => {
    optionError(engine.options.set('Repetition Rule', rule.value));
    ctx.edited('position');
  });
  for (const [id, option] of [
    ['threads', 'Threads'],
    ['hash', 'Hash'],
  ] as const)
    $(id).addEventListener('change', (ev) => {
      const r = engine.options.set(option, (ev.target as HTMLInputElement).value);
      optionError(r);
      if (!r.ok) (ev.target as HTMLInputElement).value = String(engine.options.getNumber(option));
    });

  // ---- The evaluation ----

  const evalError = (text: string): void => {
    $('eval-error').textContent = text;
  };
  const stays = (): string => t('settings.eval-stays', { evaluation: engine.evaluationName() });
  /** A file that could not be fetched or read, and the evaluation that stays. */
  const fetchFailed = (name: string, e: Error): void =>
    evalError(t('settings.fetch-failed', { name, detail: e.message, stays: stays() }));
  /** Uses a network (bytes from a URL or a file); a bad one is refused with its error and the evaluation stays. */
  const loadNetwork = async (bytes: Uint8Array, name: string): Promise<void> => {
    await decoderReady;
    const r = engine.loadNetworkBytes(bytes, name);
    if (!r.ok) {
      // The loader's reason in words, its message (which names the file) after them; a code
      // without words of its own (the translator gives the key back) is the message alone.
      const text = t(`settings.net-error.${r.error.code}`);
      const error = text.startsWith('settings.') ? r.error.message : `${text} (${r.error.message})`;
      evalError(t('settings.net-refused', { error, stays: stays() }));
      return;
    }
    evalError('');
    engine.options.set('Use NNUE', 'true'); // a loaded network plays, also after Classical
    analysis.evaluationChanged();
  };
  $('eval-load').addEventListener('click', () => {
    const url = $<HTMLInputElement>('eval-url').value.trim();
    if (!url) return;
    evalError(t('settings.loading', { name: url }));
    fetch(url)
      .then(async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`);
        return new Uint8Array(await r.arrayBuffer());
      })
      .then(
        (bytes) => loadNetwork(bytes, url),
        (e: Error) => fetchFailed(url, e),
      );
  });
  $<HTMLInputElement>('eval-file').addEventListener('change', (ev) => {
    const file = (ev.target as HTMLInputElement).files?.[0];
    if (!file) return;
    evalError(t('settings.loading', { name: file.name }));
    file.arrayBuffer().then(
      (b) => loadNetwork(new Uint8Array(b), file.name),
      (e: Error) => fetchFailed(file.name, e),
    );
  });
  $('eval-embedded').addEventListener('click', () => {
    // Kirin's embedded network: no file, networks on.
    const r = engine.options.set('EvalFile', '');
    const u = engine.options.set('Use NNUE', 'true');
    evalError(!r.ok ? r.error.message : !u.ok ? u.error.message : '');
    analysis.evaluationChanged();
  });
  $('eval-classical').addEventListener('click', () => {
    const r = engine.options.set('Use NNUE', 'false');
    evalError(r.ok ? '' : r.error.message);
    analysis.evaluationChanged();
  });
  return () => ({ set: pieces, theme });
}
