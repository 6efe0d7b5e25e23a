//! Player names as slippi-js reads them: Shift-JIS (cp932) decoded, cut at
//! the first NUL, full-width forms made half-width (`toHalfwidth`).

use super::sjis_table::ROWS_1_8;

/// What iconv-cp932 gives for a byte or code it cannot map (〓).
const GETA: char = '\u{3013}';

/// The characters of a Shift-JIS name as slippi-js decodes it: rows 1–8
/// (symbols, full-width Latin and digits, kana: everything the name entry
/// types) and half-width katakana mapped, other double-byte codes (kanji)
/// given as U+3013; stopped at the first NUL; full-width ASCII, the
/// ideographic space and the curly quotes made half-width.
pub fn name_chars(bytes: &[u8]) -> impl Iterator<Item = char> + '_ {
    let mut i = 0usize;
    core::iter::from_fn(move || {
        let &b = bytes.get(i)?;
        i = i.saturating_add(1);
        let c = match b {
            0x00..=0x7F => char::from(b),
            0xA1..=0xDF => char::from_u32(0xFF61_u32.wrapping_add(u32::from(b.wrapping_sub(0xA1))))
                .unwrap_or(GETA),
            0x81..=0x9F | 0xE0..=0xFC => match bytes.get(i) {
                Some(&t) if (0x40..=0xFC).contains(&t) && t != 0x7F => {
                    i = i.saturating_add(1);
                    double(b, t)
                }
                _ => GETA,
            },
            _ => GETA,
        };
        (c != '\0').then(|| halfwidth(c))
    })
}

/// A double-byte code: rows 1–8 from the table, U+3013 beyond.
fn double(lead: u8, trail: u8) -> char {
    if !(0x81..=0x84).contains(&lead) {
        return GETA;
    }
    // Both in range (checked by the caller and above): no wrap happens.
    let col = usize::from(trail.wrapping_sub(0x40)).wrapping_sub(usize::from(trail > 0x7F));
    let at = usize::from(lead.wrapping_sub(0x81))
        .wrapping_mul(188)
        .wrapping_add(col);
    ROWS_1_8
        .get(at)
        .and_then(|&u| char::from_u32(u32::from(u)))
        .unwrap_or(GETA)
}

/// slippi-js's `toHalfwidth` for one character.
fn halfwidth(c: char) -> char {
    let u = u32::from(c);
    let h = match u {
        0xFF01..=0xFF5E => u.wrapping_sub(0xFF00 - 0x20),
        0x3000 => 0x20,
        0x2019 => 0x27,
        0x201D => 0x22,
        _ => return c,
    };
    char::from_u32(h).unwrap_or(c)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "unit tests")]
mod tests {
    use super::*;

    fn name(b: &[u8]) -> std::string::String {
        name_chars(b).collect()
    }

    #[test]
    fn names() {
        // "ＡＢＣ＃１２３" as the console writes a connect code.
        assert_eq!(
            name(b"\x82\x60\x82\x61\x82\x62\x81\x94\x82\x50\x82\x51\x82\x52"),
            "ABC#123"
        );
        assert_eq!(name(b"abc\0def"), "abc");
        // Hiragana "あ", katakana "ア", half-width "ｱ", a kanji, a bad byte.
        assert_eq!(name(b"\x82\xa0\x83\x41\xb1\x88\x9f\x80"), "あアｱ〓〓");
        assert_eq!(name(b"\x81"), "〓");
    }
}
