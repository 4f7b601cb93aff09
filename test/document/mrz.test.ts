import { describe, expect, it } from 'vitest';
import { buildTd1, buildTd3, mrzNameField, toMrzText } from '../../src/document/mrz.ts';
import { checkDigit, td1Failures, td3Failures } from './independent-mrz-check.ts';

describe('the independent check digit', () => {
  it('matches the worked examples of ICAO 9303 part 3', () => {
    expect(checkDigit('520727')).toBe(3);
    expect(checkDigit('L898902C3')).toBe(6);
    expect(checkDigit('740812')).toBe(2);
    expect(checkDigit('120415')).toBe(9);
  });
});

describe('MRZ generation', () => {
  it('reproduces the ICAO 9303 TD3 specimen (Anna Maria Eriksson, Utopia) character for character', () => {
    const lines = buildTd3({
      surname: 'Eriksson',
      givenNames: 'Anna María',
      nationality: 'UTO',
      issuingState: 'UTO',
      documentNumber: 'L898902C3',
      dateOfBirth: '1974-08-12',
      sex: 'F',
      expirationDate: '2012-04-15',
      optionalData: 'ZE184226B',
    });
    expect(lines).toEqual(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']);
    expect(td3Failures(lines)).toEqual([]);
  });

  it('reproduces the ICAO 9303 TD1 specimen', () => {
    const lines = buildTd1({
      surname: 'Eriksson',
      givenNames: 'Anna Maria',
      nationality: 'UTO',
      issuingState: 'UTO',
      documentNumber: 'D23145890',
      dateOfBirth: '1974-08-12',
      sex: 'F',
      expirationDate: '2012-04-15',
    });
    expect(lines).toEqual(['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<']);
    expect(td1Failures(lines)).toEqual([]);
  });

  it('writes Germany as D<< and transliterates names', () => {
    const [line1] = buildTd1({
      surname: "O'Brien-Müller",
      givenNames: 'Zoë',
      nationality: 'DEU',
      issuingState: 'DEU',
      documentNumber: 'L01X00T47',
      dateOfBirth: '1990-01-31',
      sex: 'M',
      expirationDate: '2031-12-01',
    });
    expect(line1?.slice(0, 5)).toBe('I<D<<');
    expect(toMrzText("O'Brien-Müller")).toBe('OBRIEN<MULLER');
    expect(mrzNameField("O'Brien-Müller", 'Zoë Ann', 30)).toBe('OBRIEN<MULLER<<ZOE<ANN<<<<<<<<');
    expect(mrzNameField('Wolfeschlegelsteinhausenbergerdorff', 'Hubert', 30)).toBe('WOLFESCHLEGELSTEINHAUSENBERGER');
  });

  it('detects a wrong digit with the independent check (the check can fail)', () => {
    expect(td3Failures(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C37UTO7408122F1204159ZE184226B<<<<<10'])).toEqual([
      'document number',
      'composite',
    ]);
  });
});
