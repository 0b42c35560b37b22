// A PGN text offered to the player as a file download, through a link.

/** Offers `text` as the PGN file `name` (UTF-8) to download. */
export function downloadPgn(doc: Document, name: string, text: string): void {
  const a = doc.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn;charset=utf-8' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
