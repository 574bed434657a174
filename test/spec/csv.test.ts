// The CSV writer every export shares: a cell a spreadsheet would evaluate as a formula is written as text, whichever
// separator the spreadsheet splits on.
import { describe, expect, it } from 'vitest';
import { csvLines, guardFormula } from '../../server/src/core/csv.js';

const line = (...cells: string[]) =>
  csvLines(
    [cells],
    cells.map((_c, i) => ({ header: `C${i}`, value: (r: string[]) => r[i] })),
  );

describe('csv formula guard', () => {
  it('when a cell starts with a formula trigger, then it is quoted and prefixed with a single quote', () => {
    for (const text of ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\t=1', '\r=1'])
      expect(guardFormula(text)).toEqual({ value: `'${text}`, quoted: true });
    expect(line('=1+1')).toBe(`"'=1+1"\r\n`);
  });

  it('when a formula trigger follows a semicolon or a comma inside the cell, then the whole cell is quoted and prefixed', () => {
    // A spreadsheet that splits on ";" would otherwise read `=1+1` as a cell of its own.
    expect(line('Hotel;=1+1;x')).toBe(`"'Hotel;=1+1;x"\r\n`);
    expect(line('Hotel; =1+1')).toBe(`"'Hotel; =1+1"\r\n`);
    for (const text of ['a;+1', 'a;-1', 'a;@SUM(A1)', 'a;\t=1', 'a,=1+1', 'a,@x', 'a;\r=1'])
      expect(guardFormula(text), JSON.stringify(text)).toEqual({ value: `'${text}`, quoted: true });
  });

  it('when no trigger starts a cell or follows a separator, then the text is written as it is', () => {
    for (const text of ['Hotel; Resort', 'Hotel, Resort', 'a=b', 'a-b;c', 'กลุ่มโรงแรม', ''])
      expect(guardFormula(text)).toBe(text);
    expect(line('Comma, "quoted"')).toBe('"Comma, ""quoted"""\r\n');
  });

  it('a number is never guarded: a negative number stays a number', () => {
    expect(csvLines([{ n: -5 }], [{ header: 'N', value: (r) => r.n }])).toBe('-5\r\n');
  });
});
