/** Rounds to `digits` decimals (half up, as Math.round), giving stable JSON numbers. */
export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
