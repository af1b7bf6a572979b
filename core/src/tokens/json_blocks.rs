//! JSON text read 64 bytes at a time as bit masks (bit `i` is byte `i` of the block): the
//! quotes, backslashes and layout bytes, which characters an escape covers, and which
//! bytes lie inside strings — simdjson's stage-1 idea. The byte classes come from SSE2
//! compares on x86-64 and from `u64` arithmetic (eight bytes per word) elsewhere; the
//! escapes and strings from a few shifts and an add per block.
//!
//! The estimator measures a message from these masks with a few popcounts per block
//! instead of stopping at every quote and escape (JSON text is full of both).

/// Bits at even positions, for telling odd runs of backslashes from even ones.
const EVEN_BITS: u64 = 0x5555_5555_5555_5555;

/// What one 64-byte block holds, as masks and counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Masks {
    /// `"` bytes (escaped or not).
    pub quotes: u64,
    /// `\` bytes.
    pub backslashes: u64,
    /// Bytes up to and including the space: in valid JSON, layout outside strings or a
    /// space inside one (raw control characters cannot stand in a string).
    pub spaces_and_controls: u64,
    /// `/` bytes: escaped, the one short escape JSON.stringify writes differently.
    pub slashes: u64,
    /// `u` bytes: escaped, a `\uXXXX` escape.
    pub us: u64,
    /// UTF-8 continuation bytes (`10xxxxxx`): not characters of their own.
    pub continuations: u32,
    /// Leads of four-byte characters (`11110xxx`): two UTF-16 units each.
    pub four_byte_leads: u32,
}

impl Masks {
    /// The masks of a block: with SSE2 where the target has it (every x86-64), else
    /// eight bytes at a time in plain integers.
    pub fn of(block: &[u8; 64]) -> Masks {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return sse2::masks(block);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        return words::masks(block);
    }
}

/// The masks with SSE2 compares, sixteen bytes at a time (`safe_arch` wraps the
/// intrinsics, so no `unsafe` here).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::Masks;
    use safe_arch::{
        cmp_eq_mask_i8_m128i, cmp_lt_mask_i8_m128i, load_unaligned_m128i, m128i, max_u8_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i,
    };

    /// The bits of `lanes` whose bytes compared true.
    fn bits(lanes: m128i) -> u64 {
        u64::from(move_mask_i8_m128i(lanes) as u16)
    }

    pub(super) fn masks(block: &[u8; 64]) -> Masks {
        let splat = |b: u8| set_splat_i8_m128i(b as i8);
        let (quote, backslash, space, slash, u) = (splat(b'"'), splat(b'\\'), splat(b' '), splat(b'/'), splat(b'u'));
        // Signed, 0x80..=0xBF are the bytes below 0xC0; unsigned, a byte is at least
        // 0xF0 when the larger of it and 0xF0 is itself.
        let (first_lead, four_lead) = (splat(0xc0), splat(0xf0));
        let mut masks = Masks::default();
        for (k, chunk) in block.chunks_exact(16).enumerate() {
            let v = load_unaligned_m128i(chunk.try_into().expect("sixteen bytes"));
            let shift = 16 * k;
            masks.quotes |= bits(cmp_eq_mask_i8_m128i(v, quote)) << shift;
            masks.backslashes |= bits(cmp_eq_mask_i8_m128i(v, backslash)) << shift;
            masks.spaces_and_controls |= bits(cmp_eq_mask_i8_m128i(max_u8_m128i(v, space), space)) << shift;
            masks.slashes |= bits(cmp_eq_mask_i8_m128i(v, slash)) << shift;
            masks.us |= bits(cmp_eq_mask_i8_m128i(v, u)) << shift;
            masks.continuations += bits(cmp_lt_mask_i8_m128i(v, first_lead)).count_ones();
            masks.four_byte_leads += bits(cmp_eq_mask_i8_m128i(max_u8_m128i(v, four_lead), v)).count_ones();
        }
        masks
    }
}

/// The masks eight bytes at a time in `u64` words (SWAR), for targets without SSE2.
/// Every comparison is exact per byte: no sum carries from one byte into the next.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2", not(test)), allow(dead_code))]
mod words {
    use super::Masks;

    /// The low seven bits of every byte of a word.
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    /// The high bit of every byte of a word.
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// One in every byte: times a byte value, that value in every byte.
    const ONES: u64 = 0x0101_0101_0101_0101;

    /// The high bit of each byte of `word` that equals `byte`.
    fn bytes_equal(word: u64, byte: u8) -> u64 {
        let diff = word ^ (ONES * u64::from(byte));
        !(((diff & LOW7) + LOW7) | diff) & HIGH
    }

    /// The high bit of each byte of `word` below `limit` (at most 0x80).
    fn bytes_below(word: u64, limit: u8) -> u64 {
        !(((word & LOW7) + ONES * u64::from(0x80 - limit)) | word) & HIGH
    }

    /// The high bits of a word's bytes gathered into its low eight bits (byte `i` → bit
    /// `i`): the multiplier's terms land on distinct bits, so nothing carries.
    fn gather(high_bits: u64) -> u64 {
        ((high_bits >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }

    pub(super) fn masks(block: &[u8; 64]) -> Masks {
        let mut masks = Masks::default();
        for (k, chunk) in block.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            let shift = 8 * k;
            masks.quotes |= gather(bytes_equal(word, b'"')) << shift;
            masks.backslashes |= gather(bytes_equal(word, b'\\')) << shift;
            masks.spaces_and_controls |= gather(bytes_below(word, b' ' + 1)) << shift;
            masks.slashes |= gather(bytes_equal(word, b'/')) << shift;
            masks.us |= gather(bytes_equal(word, b'u')) << shift;
            // 10xxxxxx: bit 7 set, bit 6 (moved up to bit 7 by the shift) clear.
            masks.continuations += (word & !(word << 1) & HIGH).count_ones();
            masks.four_byte_leads += (word & (word << 1) & (word << 2) & (word << 3) & HIGH).count_ones();
        }
        masks
    }
}

/// The string state carried from one block to the next.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Strings {
    /// 1 when the previous block ended with a backslash that escapes this block's first byte.
    escape_carried: u64,
    /// All ones when the previous block ended inside a string.
    inside_carried: u64,
}

/// Where the escapes and strings of a block are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Layout {
    /// Characters an escape covers: the byte just after an odd run of backslashes.
    pub escaped: u64,
    /// Bytes inside strings: an opening quote and the string's body (not its closing quote).
    pub inside: u64,
}

impl Strings {
    /// The layout of the next block, given its masks.
    pub fn next(&mut self, masks: &Masks) -> Layout {
        let escaped = self.escaped(masks.backslashes);
        let quotes = masks.quotes & !escaped;
        let inside = prefix_xor(quotes) ^ self.inside_carried;
        self.inside_carried = 0u64.wrapping_sub(inside >> 63);
        Layout { escaped, inside }
    }

    /// The bytes escaped by a backslash: in a run of backslashes each pair is one
    /// escaped backslash, and an odd run escapes the byte after it. Runs are told odd
    /// or even by adding each run's start to the run (the carry clears it), on whichever
    /// parity of position it starts.
    fn escaped(&mut self, backslashes: u64) -> u64 {
        let backslashes = backslashes & !self.escape_carried;
        let follows_backslash = (backslashes << 1) | self.escape_carried;
        let odd_starts = backslashes & !EVEN_BITS & !follows_backslash;
        let (even_starts, carried_out) = odd_starts.overflowing_add(backslashes);
        self.escape_carried = u64::from(carried_out);
        let flip = even_starts << 1;
        (EVEN_BITS ^ flip) & follows_backslash
    }
}

/// Bit `i` of the result is the XOR of bits `0..=i` of `bits`.
fn prefix_xor(mut bits: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        bits ^= bits << shift;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte-at-a-time reference: escaped bytes and in-string bytes as a JSON reader sees
    /// them walking the text.
    fn walk(text: &[u8]) -> (Vec<bool>, Vec<bool>) {
        let (mut escaped, mut inside) = (vec![false; text.len()], vec![false; text.len()]);
        let (mut in_string, mut escape_next) = (false, false);
        for (i, &b) in text.iter().enumerate() {
            if escape_next {
                escaped[i] = true;
                escape_next = false;
            } else if b == b'\\' {
                escape_next = true;
            } else if b == b'"' {
                in_string = !in_string;
            }
            // The opening quote counts as inside, the closing one as outside.
            inside[i] = in_string;
        }
        (escaped, inside)
    }

    /// The block masks of `text`, padded with spaces to whole blocks, as per-byte flags.
    fn scanned(text: &[u8]) -> (Vec<bool>, Vec<bool>, Vec<Masks>) {
        let mut strings = Strings::default();
        let (mut escaped, mut inside, mut all) = (Vec::new(), Vec::new(), Vec::new());
        for chunk in text.chunks(64) {
            let mut block = [b' '; 64];
            block[..chunk.len()].copy_from_slice(chunk);
            let masks = Masks::of(&block);
            let layout = strings.next(&masks);
            for i in 0..chunk.len() {
                escaped.push(layout.escaped >> i & 1 == 1);
                inside.push(layout.inside >> i & 1 == 1);
            }
            all.push(masks);
        }
        (escaped, inside, all)
    }

    proptest::proptest! {
        /// Escapes and strings match the byte walk wherever runs of backslashes and
        /// quotes fall against the block edges.
        #[test]
        fn layout_matches_a_byte_walk(text in "[\"\\\\a ]{0,300}") {
            let (escaped, inside, _) = scanned(text.as_bytes());
            let (want_escaped, want_inside) = walk(text.as_bytes());
            proptest::prop_assert_eq!(escaped, want_escaped);
            proptest::prop_assert_eq!(inside, want_inside);
        }

        /// Every byte value is classed as its own comparison says, by the masks in use
        /// and by the word-at-a-time ones other targets use.
        #[test]
        fn masks_class_every_byte(bytes in proptest::collection::vec(proptest::num::u8::ANY, 64)) {
            let block: [u8; 64] = bytes.clone().try_into().expect("64 bytes");
            let mut want = Masks::default();
            for (i, &b) in bytes.iter().enumerate() {
                want.quotes |= u64::from(b == b'"') << i;
                want.backslashes |= u64::from(b == b'\\') << i;
                want.spaces_and_controls |= u64::from(b <= b' ') << i;
                want.slashes |= u64::from(b == b'/') << i;
                want.us |= u64::from(b == b'u') << i;
                want.continuations += u32::from(b & 0xc0 == 0x80);
                want.four_byte_leads += u32::from(b >= 0xf0);
            }
            proptest::prop_assert_eq!(Masks::of(&block), want);
            proptest::prop_assert_eq!(words::masks(&block), want);
        }
    }
}
