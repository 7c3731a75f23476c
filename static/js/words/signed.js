// A rating's change as the English catalogs write it, rounded: +12, −8 (a minus sign, not a
// hyphen), ±0.
export function signedChange(change) {
  const whole = Math.round(change);
  return whole > 0 ? `+${whole}` : whole < 0 ? `−${-whole}` : "±0";
}
