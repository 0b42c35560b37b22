// The library room's panel: the games kept in this browser, listed (the last
// saved first, or by date, players, opening, length), searched by player,
// event or opening and filtered by result and source; each game opened on the
// board, renamed or deleted; all of them exported as one PGN, and games
// imported from many files at once. The games themselves are library.ts's.

import { downloadPgn } from '../io/download.js';
import type { GameResult } from '../../src/browser/index.js';
import type { LibraryHost } from './host.js';
import type { GameLibrary } from './library.js';
import type { LibraryQuery, SortKey } from './query.js';
import type { GameRecord, GameSource } from './record.js';

export interface LibraryPanel {
  /** The panel (the root given to mountLibraryPanel). */
  readonly element: HTMLElement;
  /** The library the panel shows: the page saves games, changes and the session through it. */
  readonly library: GameLibrary;
  /** Lists the games again and writes every text in the current language (after the page switched it). */
  refresh(): Promise<void>;
}

const STYLE = `
.kirin-library { display: flex; flex-direction: column; gap: .5em; }
.kirin-library .library-tools { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; }
.kirin-library .library-search { flex: 1 1 12em; min-width: 8em; }
.kirin-library .library-list { list-style: none; margin: 0; padding: 0; max-height: 28em; overflow-y: auto; }
.kirin-library .library-item { display: flex; gap: .4em; align-items: center; padding: .3em 0;
  border-bottom: 1px solid var(--line, #8884); }
.kirin-library .library-open { flex: 1; text-align: start; background: none; border: none; padding: 0; cursor: pointer;
  color: inherit; font: inherit; }
.kirin-library .library-name { font-weight: 600; }
.kirin-library .library-meta { display: block; font-size: .85em; opacity: .8; }
.kirin-library .library-error { color: var(--error, #b00020); }
.kirin-library .library-import input { display: none; }
`;

function injectStyle(doc: Document): void {
  if (doc.getElementById('kirin-library-style')) return;
  const style = doc.createElement('style');
  style.id = 'kirin-library-style';
  style.textContent = STYLE;
  doc.head.appendChild(style);
}

const RESULTS: readonly (GameResult | 'any')[] = ['any', '1-0', '0-1', '1/2-1/2', '*'];
const RESULT_KEYS: Record<GameResult | 'any', string> = {
  any: 'library.result.any',
  '1-0': 'library.result.red',
  '0-1': 'library.result.black',
  '1/2-1/2': 'library.result.draw',
  '*': 'library.result.unknown',
};
const SOURCES: readonly (GameSource | 'any')[] = ['any', 'played', 'imported', 'analysis'];
const SORTS: readonly SortKey[] = ['updated', 'date', 'red', 'black', 'opening', 'plies'];

/** Mounts the library panel into `root` (emptied first), showing `library`. */
export function mountLibraryPanel(root: HTMLElement, host: LibraryHost, library: GameLibrary): LibraryPanel {
  const doc = root.ownerDocument;
  injectStyle(doc);
  const t = host.t;
  root.replaceChildren();
  root.classList.add('kirin-library');

  const tools = doc.createElement('div');
  tools.className = 'library-tools';
  const search = doc.createElement('input');
  search.type = 'search';
  search.className = 'library-search';
  const result = doc.createElement('select');
  result.className = 'library-result';
  const source = doc.createElement('select');
  source.className = 'library-source';
  const sort = doc.createElement('select');
  sort.className = 'library-sort';
  const exportButton = doc.createElement('button');
  exportButton.type = 'button';
  exportButton.className = 'library-export';
  const importLabel = doc.createElement('label');
  importLabel.className = 'library-import';
  const importText = doc.createElement('span');
  const importInput = doc.createElement('input');
  importInput.type = 'file';
  importInput.multiple = true;
  importInput.accept = '.pgn,.xqf,.txt';
  importLabel.append(importText, importInput);
  importLabel.tabIndex = 0;
  importLabel.setAttribute('role', 'button');
  tools.append(search, result, source, sort, exportButton, importLabel);
  const status = doc.createElement('div');
  status.className = 'library-status';
  status.setAttribute('role', 'status');
  const problem = doc.createElement('div');
  problem.className = 'library-error';
  const list = doc.createElement('ul');
  list.className = 'library-list';
  root.append(tools, status, problem, list);

  /** The message of the last import or export, shown under the tools until the next. */
  let said = '';
  /** The record being renamed (its row shows a text box), or null. */
  let renaming: string | null = null;
  /** The record whose delete button asks again, or null. */
  let deleting: string | null = null;
  let deleteTimer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped by every listing: an older one's answer is dropped. */
  let listing = 0;

  function fillSelects(): void {
    const keep = [result.value, source.value, sort.value];
    result.replaceChildren(...RESULTS.map((r) => new Option(t(RESULT_KEYS[r]), r)));
    source.replaceChildren(...SOURCES.map((s) => new Option(t(`library.source.${s}`), s)));
    sort.replaceChildren(...SORTS.map((s) => new Option(t(`library.sort.${s}`), s)));
    result.value = keep[0] || 'any';
    source.value = keep[1] || 'any';
    sort.value = keep[2] || 'updated';
    result.title = t('library.filter.result');
    source.title = t('library.filter.source');
    sort.title = t('library.filter.sort');
    search.placeholder = t('library.search');
    search.setAttribute('aria-label', t('library.search'));
    exportButton.textContent = t('library.export');
    importText.textContent = t('library.import');
    problem.textContent = library.problem === null ? '' : t('library.noStorage', { message: library.problem });
  }

  function query(): LibraryQuery {
    return {
      text: search.value,
      result: result.value as GameResult | 'any',
      source: source.value as GameSource | 'any',
      sort: sort.value as SortKey,
    };
  }

  function button(className: string, text: string, onClick: () => void): HTMLButtonElement {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = className;
    b.textContent = text;
    b.addEventListener('click', onClick);
    return b;
  }

  /** The name a row shows: the game's own, else its players, else untitled. */
  function nameOf(r: GameRecord): string {
    if (r.title !== '') return r.title;
    if (r.red !== '' || r.black !== '') return t('library.players', { red: r.red || '?', black: r.black || '?' });
    return r.event !== '' ? r.event : t('library.untitled');
  }

  function row(r: GameRecord): HTMLLIElement {
    const li = doc.createElement('li');
    li.className = 'library-item';
    li.dataset.id = r.id;
    li.dataset.result = r.result;
    if (renaming === r.id) {
      const input = doc.createElement('input');
      input.className = 'library-rename-input';
      input.value = r.title === '' ? nameOf(r) : r.title;
      const save = async (): Promise<void> => {
        const done = await library.rename(r.id, input.value);
        if (!done.ok) {
          said = t(`library.error.${done.error.code}`, { message: done.error.message });
          return void show();
        }
        renaming = null;
      };
      input.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') void save();
        if (ev.key === 'Escape') {
          renaming = null;
          void show();
        }
      });
      li.append(
        input,
        button('library-rename-save', t('library.renameSave'), () => void save()),
        button('library-rename-cancel', t('library.renameCancel'), () => {
          renaming = null;
          void show();
        }),
      );
      queueMicrotask(() => input.focus());
      return li;
    }
    const open = doc.createElement('button');
    open.type = 'button';
    open.className = 'library-open';
    open.title = t('library.open');
    const name = doc.createElement('span');
    name.className = 'library-name';
    name.textContent = nameOf(r);
    const meta = doc.createElement('span');
    meta.className = 'library-meta';
    meta.textContent = [
      t(RESULT_KEYS[r.result]),
      [r.eccoCode, r.opening].filter((x) => x !== '').join(' '),
      r.date.replace(/\.\?\?/g, ''),
      t('library.moves', { n: Math.ceil(r.plies / 2) }),
      t(`library.source.${r.source}`),
      r.review ? t('library.reviewed') : '',
    ]
      .filter((x) => x !== '')
      .join(' · ');
    open.append(name, meta);
    open.addEventListener('click', async () => {
      const opened = await library.open(r.id);
      if (!opened.ok) {
        said = t(`library.error.${opened.error.code}`, { message: opened.error.message });
        return void show();
      }
      host.open(opened.value);
    });
    li.append(
      open,
      button('library-rename', t('library.rename'), () => {
        renaming = r.id;
        void show();
      }),
      button('library-delete', t(deleting === r.id ? 'library.confirmDelete' : 'library.delete'), () => {
        if (deleting !== r.id) {
          // The first press asks again on the button itself (no dialog); the second within 3 s deletes.
          deleting = r.id;
          if (deleteTimer !== null) clearTimeout(deleteTimer);
          deleteTimer = setTimeout(() => {
            deleting = null;
            void show();
          }, 3000);
          return void show();
        }
        deleting = null;
        void library.remove(r.id);
      }),
    );
    return li;
  }

  /** Lists the games that match the search, in the chosen order. */
  async function show(): Promise<void> {
    const token = ++listing;
    const all = await library.list();
    const found = await library.list(query());
    if (token !== listing) return;
    list.replaceChildren(...found.map(row));
    const count = found.length === 1 ? t('library.countOne') : t('library.count', { n: found.length });
    status.textContent = all.length === 0 ? t('library.empty') : found.length === 0 ? t('library.noMatch') : count;
    if (said !== '') status.textContent += ` · ${said}`;
    root.dataset.games = String(found.length);
  }

  function errorsText(errors: readonly string[]): string {
    return errors.slice(0, 3).join('; ') + (errors.length > 3 ? '; …' : '');
  }

  exportButton.addEventListener('click', async () => {
    const b = await library.exportAll(host.notation(), query());
    said = t('library.exportDone', { n: b.games });
    if (b.errors.length > 0)
      said += ` · ${t('library.exportErrors', { n: b.errors.length, errors: errorsText(b.errors) })}`;
    if (b.games > 0) (host.download ?? ((n, text) => downloadPgn(doc, n, text)))('kirin-games.pgn', b.pgn);
    void show();
  });
  importInput.addEventListener('change', async () => {
    const files = [...(importInput.files ?? [])];
    importInput.value = '';
    if (files.length === 0) return;
    const read = await Promise.all(
      files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })),
    );
    const report = await library.importFiles(read);
    said = t('library.importDone', { saved: report.saved.length, duplicates: report.duplicates });
    if (report.errors.length > 0)
      said += ` · ${t('library.importErrors', { n: report.errors.length, errors: errorsText(report.errors) })}`;
    void show();
  });
  importLabel.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') importInput.click();
  });
  for (const control of [result, source, sort]) control.addEventListener('change', () => void show());
  search.addEventListener('input', () => void show());
  library.onChange = () => void show();

  fillSelects();
  void show();

  return {
    element: root,
    library,
    async refresh(): Promise<void> {
      fillSelects();
      await show();
    },
  };
}
