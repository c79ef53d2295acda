//! SQLite's printing of doubles, digit for digit: `%.3f` (what the harness
//! prints for an `R` column) and `%!.17g` (how a REAL becomes text, for a `T`
//! column), as in the SQLite 3.54 that rusqlite bundles.
//!
//! SQLite first turns the double into an integer `D` of 18 or 19 decimal
//! digits and a power of ten (`sqlite3Fp2Convert10`: the 64-bit mantissa
//! times a 64-bit approximation of a power of ten, rounded half up on one
//! extra bit), then rounds `D` half up to the digits the format keeps
//! (`sqlite3FpDecode`), never more than 16 for `%f`. The approximation can
//! put the 18th digit one off the exact value, so we port it bit for bit
//! rather than rounding the exact decimal expansion; a test compares us
//! with the bundled SQLite over thousands of values.

/// `10^n` for n in 0..27, shifted so that bit 63 is set (exact: `5^n` fits).
fn base_power(n: i32) -> u64 {
    let five = 5u64.pow(n as u32);
    five << five.leading_zeros()
}

/// SQLite's `aScale[]` (the top 64 bits of `10^(27·(i−13))`, except entry
/// 13 which is `10^-1`) and `aScaleLo[]` (the next 32 bits), rounded.
const SCALE: [u64; 26] = [
    0x8049a4ac0c5811ae,
    0xcf42894a5dce35ea,
    0xa76c582338ed2621,
    0x873e4f75e2224e68,
    0xda7f5bf590966848,
    0xb080392cc4349dec,
    0x8e938662882af53e,
    0xe65829b3046b0afa,
    0xba121a4650e4ddeb,
    0x964e858c91ba2655,
    0xf2d56790ab41c2a2,
    0xc428d05aa4751e4c,
    0x9e74d1b791e07e48,
    0xcccccccccccccccc,
    0xcecb8f27f4200f3a,
    0xa70c3c40a64e6c51,
    0x86f0ac99b4e8dafd,
    0xda01ee641a708de9,
    0xb01ae745b101e9e4,
    0x8e41ade9fbebc27d,
    0xe5d3ef282a242e81,
    0xb9a74a0637ce2ee1,
    0x95f83d0a1fb69cd9,
    0xf24a01a73cf2dccf,
    0xc3b8358109e84f07,
    0x9e19db92b4e31ba9,
];
const SCALE_LO: [u32; 26] = [
    0x205b896d, 0x52064cad, 0xaf2af2b8, 0x5a7744a7, 0xaf39a475, 0xbd8d794e, 0x547eb47b, 0x0cb4a5a3,
    0x92f34d62, 0x3a6a07f9, 0xfae27299, 0xaa97e14c, 0x775ea265, 0xcccccccc, 0x00000000, 0x999090b6,
    0x69a028bb, 0xe80e6f48, 0x5ec05dd0, 0x14588f14, 0x8f1668c9, 0x6d953e2c, 0x4abdaf10, 0xbc633b39,
    0x0a862f81, 0x6c07a2c2,
];

/// The top 64 bits of `10^p` (SQLite's `powerOfTen`), for |p| ≤ 348.
fn power_of_ten(p: i32) -> u64 {
    let (g, n) = if p < 0 {
        if p == -1 {
            return SCALE[13];
        }
        // C division truncates toward zero, as Rust's does.
        let (g, n) = (p / 27, p % 27);
        if n != 0 { (g - 1, n + 27) } else { (g, n) }
    } else if p < 27 {
        return base_power(p);
    } else {
        (p / 27, p % 27)
    };
    let i = (g + 13) as usize;
    if n == 0 {
        return SCALE[i];
    }
    // The top 96 bits of (SCALE:SCALE_LO) × base, as sqlite3Multiply160.
    let b = u128::from(base_power(n));
    let r = u128::from(SCALE[i]) * b + ((u128::from(SCALE_LO[i]) * b) >> 32);
    let (x, lo) = ((r >> 64) as u64, (r >> 32) as u32);
    if x >> 63 == 0 { x << 1 | u64::from(lo >> 31) } else { x }
}

/// floor(log10(2^p)), approximately, as SQLite computes it.
fn pow2_to_10(p: i32) -> i32 {
    (p * 78913) >> 18
}

/// floor(log2(10^p)), approximately, as SQLite computes it.
fn pow10_to_2(p: i32) -> i32 {
    (p * 108853) >> 15
}

/// The digits of a finite, non-zero `|v|` as `sqlite3FpDecode` draws them
/// (18 or 19 of them), and the power of ten of the first one.
fn decode(v: f64) -> (Vec<u8>, i32) {
    let bits = v.abs().to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // v = m · 2^e with bit 63 of m set.
    let (m, e) = if biased == 0 {
        let nn = fraction.leading_zeros() as i32;
        (fraction << nn, -1074 - nn)
    } else {
        (fraction << 11 | 1 << 63, biased - 1086)
    };
    // sqlite3Fp2Convert10 with n = 18, the count every format here asks for.
    let p = 17 - pow2_to_10(e + 63);
    let h = ((u128::from(m) * u128::from(power_of_ten(p))) >> 64) as u64;
    let h = h >> -(e + pow10_to_2(p) + 2);
    let d = (h >> 1) + (h & 1);
    let digits: Vec<u8> = d.to_string().bytes().map(|b| b - b'0').collect();
    let exp = digits.len() as i32 - p - 1;
    (digits, exp)
}

/// Rounds digits (first one at power `exp`) half up to `keep` significant
/// digits, as `sqlite3FpDecode` does. `keep` may be 0 or negative: rounding
/// then happens above the first digit, which leaves either a `1` one place
/// up or nothing. Returns the new digits and the power of the first.
fn round_digits(mut digits: Vec<u8>, mut exp: i32, mut keep: i32) -> (Vec<u8>, i32) {
    if keep <= 0 {
        // Shift in one leading zero so that rounding at the first digit works.
        digits.insert(0, 0);
        exp += 1;
        keep += 1;
        if keep <= 0 {
            return (Vec::new(), exp);
        }
    }
    let keep = keep as usize;
    if digits.len() > keep {
        let round_up = digits[keep] >= 5;
        digits.truncate(keep);
        if round_up {
            match digits.iter().rposition(|&d| d != 9) {
                Some(i) => {
                    digits[i] += 1;
                    digits[i + 1..].fill(0);
                }
                None => {
                    // All nines: 99.9 → 100, one more power of ten.
                    digits.fill(0);
                    digits.insert(0, 1);
                    exp += 1;
                }
            }
        }
    }
    // Drop the leading zero the shift may have left.
    let zeros = digits.iter().take_while(|&&d| d == 0).count();
    if zeros == digits.len() {
        return (Vec::new(), exp);
    }
    digits.drain(..zeros);
    (digits, exp - zeros as i32)
}

/// Lays digits (first one at power `exp`) out positionally: the integer part
/// (at least `0`) and the fraction digits down to power `lo` (`lo` < 0).
fn positional(digits: &[u8], exp: i32, lo: i32) -> (String, Vec<u8>) {
    let digit = |pos: i32| -> u8 {
        usize::try_from(exp - pos).ok().and_then(|i| digits.get(i)).copied().unwrap_or(0)
    };
    let int_part = (0..=exp.max(0)).rev().map(|pos| char::from(b'0' + digit(pos))).collect();
    let frac = (lo..0).rev().map(digit).collect();
    (int_part, frac)
}

fn special(v: f64) -> Option<String> {
    if v.is_nan() {
        Some("NaN".to_owned())
    } else if v.is_infinite() {
        Some(if v < 0.0 { "-Inf" } else { "Inf" }.to_owned())
    } else {
        None
    }
}

/// SQLite's `printf("%.3f", v)`: three decimals, at most 16 significant
/// digits (the rest print as zeros), ties rounded half up.
pub fn format_fixed3(v: f64) -> String {
    if let Some(s) = special(v) {
        return s;
    }
    // SQLite signs by `v < 0`, so -0.0 prints without a minus.
    let sign = if v < 0.0 { "-" } else { "" };
    if v == 0.0 {
        return "0.000".to_owned();
    }
    let (digits, exp) = decode(v);
    // Significant digits down to the 10^-3 place, capped at SQLite's 16.
    let keep = (exp + 4).min(16);
    let (digits, exp) = round_digits(digits, exp, keep);
    let (int_part, frac) = positional(&digits, exp, -3);
    format!("{sign}{int_part}.{}", digit_string(&frac))
}

/// SQLite's text for a REAL (`CAST(x AS TEXT)`, `sqlite3_column_text`):
/// `printf("%!.17g")`, where 17 significant digits are cut back to fewer
/// when the 15th–16th are `99` or the 14th–16th `000` and the shorter text
/// reads back as the same double (so 0.1 prints `0.1`, but 0.1 + 0.2 prints
/// `0.30000000000000004`). Trailing zeros go, but a `.0` always stays;
/// exponent form (`1.0e+20`) below 1e-4 and from 1e17 up.
pub fn real_to_text(v: f64) -> String {
    if let Some(s) = special(v) {
        return s;
    }
    let sign = if v < 0.0 { "-" } else { "" };
    if v == 0.0 {
        return "0.0".to_owned();
    }
    let (z, exp) = decode(v);
    let n = z.len();
    // The digits form the integer z × 10^(exp - n + 1); a prefix of `len`
    // digits (as an integer `prefix`) stands for prefix × 10^(exp - len + 1).
    let reads_back = |prefix: u64, len: usize| {
        let power = exp + 1 - len as i32;
        format!("{prefix}e{power}").parse::<f64>() == Ok(v.abs())
    };
    let to_int = |d: &[u8]| d.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d));
    let mut keep = 17;
    if z[15] == 9 && z[14] == 9 {
        let jj = z[..14].iter().rposition(|&d| d != 9).map_or(0, |i| i + 1);
        let up = if jj == 0 { 1 } else { to_int(&z[..jj]) + 1 };
        if reads_back(up, jj) {
            keep = jj + 1;
        }
    } else if exp + 1 >= n as i32 || z[13..16] == [0, 0, 0] {
        let jj = z[..13].iter().rposition(|&d| d != 0).map_or(1, |i| i + 1);
        if reads_back(to_int(&z[..jj]), jj) {
            keep = jj + 1;
        }
    }
    let (digits, exp) = round_digits(z, exp, keep as i32);
    if (-4..=16).contains(&exp) {
        let (int_part, frac) = positional(&digits, exp, exp - 16);
        format!("{sign}{int_part}.{}", trimmed_fraction(&frac))
    } else {
        let first = char::from(b'0' + digits[0]);
        let frac = trimmed_fraction(&digits[1..]);
        let exp_sign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}.{frac}e{exp_sign}{:02}", exp.unsigned_abs())
    }
}

fn digit_string(digits: &[u8]) -> String {
    digits.iter().map(|d| char::from(b'0' + d)).collect()
}

/// Fraction digits without trailing zeros, or `0` if none remain.
fn trimmed_fraction(frac: &[u8]) -> String {
    let len = frac.iter().rposition(|&d| d != 0).map_or(0, |i| i + 1);
    if len == 0 { "0".to_owned() } else { digit_string(&frac[..len]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_ten_are_normalised_mantissas() {
        assert_eq!(power_of_ten(0), 1 << 63);
        assert_eq!(power_of_ten(3), 0xfa00000000000000);
        assert_eq!(power_of_ten(26), 0xa56fa5b99019a5c8);
        // 10^27 is a table entry; 10^28 = 10^27 · 10 is derived.
        assert_eq!(power_of_ten(27), SCALE[14]);
        assert_eq!(power_of_ten(28) >> 40, 0x813f39);
        assert_eq!(power_of_ten(-1), 0xcccccccccccccccc);
    }

    #[test]
    fn decode_yields_eighteen_or_nineteen_digits() {
        for v in [1.0, 0.1, 123.456, 1e-300, 5e-324, 1.7976931348623157e308] {
            let (digits, _) = decode(v);
            assert!((18..=19).contains(&digits.len()), "{v:e}: {digits:?}");
        }
        let (digits, exp) = decode(1.5);
        assert_eq!((digits[..3].to_vec(), exp), (vec![1, 5, 0], 0));
    }

    #[test]
    fn fixed3_prints_three_decimals() {
        assert_eq!(format_fixed3(1.25), "1.250");
        assert_eq!(format_fixed3(5.0), "5.000");
        assert_eq!(format_fixed3(-0.0004), "-0.000");
        assert_eq!(format_fixed3(-0.0), "0.000");
        assert_eq!(format_fixed3(f64::INFINITY), "Inf");
    }

    #[test]
    fn fixed3_rounds_ties_half_up() {
        // 0.0625 is exact: half-even would give 0.062.
        assert_eq!(format_fixed3(0.0625), "0.063");
        assert_eq!(format_fixed3(-0.0625), "-0.063");
        assert_eq!(format_fixed3(0.0006), "0.001");
        assert_eq!(format_fixed3(0.0004), "0.000");
        assert_eq!(format_fixed3(999.9999), "1000.000");
    }

    #[test]
    fn fixed3_keeps_sixteen_significant_digits() {
        assert_eq!(format_fixed3(i64::MIN as f64), "-9223372036854776000.000");
        assert_eq!(format_fixed3(-(2f64.powi(64))), "-18446744073709550000.000");
        assert_eq!(format_fixed3(1234567890123.4567), "1234567890123.457");
    }

    #[test]
    fn reals_as_text() {
        assert_eq!(real_to_text(1.0), "1.0");
        assert_eq!(real_to_text(-2.5), "-2.5");
        assert_eq!(real_to_text(0.1), "0.1");
        assert_eq!(real_to_text(49.47), "49.47");
        assert_eq!(real_to_text(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(real_to_text(1e20), "1.0e+20");
        assert_eq!(real_to_text(1.5e-7), "1.5e-07");
        assert_eq!(real_to_text(1e15), "1000000000000000.0");
        assert_eq!(real_to_text(1e17), "1.0e+17");
        assert_eq!(real_to_text(0.0001), "0.0001");
        assert_eq!(real_to_text(-0.0), "0.0");
    }
}
