/**
 * Opening names (ECO code and name) from lichess's CC0 opening list, keyed by position:
 * web/openings/openings.tsv (scripts/openings.ts writes it; web/openings/README.md), fetched once
 * by the page. A line is named after the deepest position along it that the list knows, so a
 * transposition gets its name too.
 */

export interface Opening {
  eco: string;
  name: string;
}

/** Placement, side to move and castling of a FEN (as scripts/openings.ts keys the file). */
export const openingKey = (fen: string): string => fen.split(/\s+/).slice(0, 3).join(' ');

export class OpeningBook {
  private constructor(private readonly byKey: Map<string, Opening>) {}

  get size(): number {
    return this.byKey.size;
  }

  /** Reads the data file's `key<TAB>eco<TAB>name` lines; malformed lines are skipped. */
  static parse(text: string): OpeningBook {
    const map = new Map<string, Opening>();
    for (const line of text.split('\n')) {
      const [key, eco, name] = line.split('\t');
      if (key && eco && name) map.set(key, { eco, name });
    }
    return new OpeningBook(map);
  }

  static async fetch(url: string): Promise<OpeningBook> {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return OpeningBook.parse(await r.text());
  }

  /** The opening of the deepest position in `fens` (a line's positions, in order) that the list names. */
  deepest(fens: readonly string[]): Opening | null {
    for (let i = fens.length - 1; i >= 0; i--) {
      const o = this.byKey.get(openingKey(fens[i]));
      if (o) return o;
    }
    return null;
  }
}
