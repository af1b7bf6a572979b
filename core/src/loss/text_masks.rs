//! A text's bytes by character class, 64 at a time as bit masks (bit `i` of block `k` is
//! byte `64k + i`), for the fact windows (`windows.rs`): finding the next byte of a class
//! and the maximal run of a class around a byte become a few bit operations per 64 bytes
//! instead of a test per byte. The masks come from SSE2 compares on x86-64 and from a
//! table elsewhere; both are checked against the byte tests they replace.

use std::ops::Range;

/// The classes the windows ask about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// `[0-9A-Za-z_]`: what `(?-u:\b)` calls a word character.
    Word,
    /// Characters of a path: `[~./A-Za-z0-9_-]`.
    Path,
    /// Characters of an identifier: `[#A-Za-z0-9_-]`.
    Ident,
    /// The number part of a number with a unit or a currency: `[0-9.,$]`.
    Numeric,
    /// `[0-9]`.
    Digit,
    /// `[A-Z0-9]`.
    UpperOrDigit,
    /// `[0-9a-f]`.
    Hex,
    /// `[_E]`: what an error code word starts or joins with.
    UnderscoreOrE,
    /// `[_A-Z]`: what makes a word `snake_case` or `camelCase`.
    UnderscoreOrUpper,
}

/// How many classes there are.
const CLASSES: usize = 9;

/// Whether byte `b` is of `class` (the definition the masks must agree with).
pub(super) fn is_of(class: Class, b: u8) -> bool {
    let word = b.is_ascii_alphanumeric() || b == b'_';
    match class {
        Class::Word => word,
        Class::Path => word || matches!(b, b'~' | b'.' | b'/' | b'-'),
        Class::Ident => word || matches!(b, b'#' | b'-'),
        Class::Numeric => b.is_ascii_digit() || matches!(b, b'.' | b',' | b'$'),
        Class::Digit => b.is_ascii_digit(),
        Class::UpperOrDigit => b.is_ascii_uppercase() || b.is_ascii_digit(),
        Class::Hex => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
        Class::UnderscoreOrE => matches!(b, b'_' | b'E'),
        Class::UnderscoreOrUpper => b == b'_' || b.is_ascii_uppercase(),
    }
}

const ALL: [Class; CLASSES] = [
    Class::Word,
    Class::Path,
    Class::Ident,
    Class::Numeric,
    Class::Digit,
    Class::UpperOrDigit,
    Class::Hex,
    Class::UnderscoreOrE,
    Class::UnderscoreOrUpper,
];

/// The class masks of one text.
pub(super) struct TextMasks {
    len: usize,
    /// Per block, one mask per class (in the order of [`Class`]); bytes past the end are
    /// of no class.
    blocks: Vec<[u64; CLASSES]>,
}

impl TextMasks {
    /// The masks of `text`.
    pub fn of(text: &str) -> TextMasks {
        let bytes = text.as_bytes();
        let mut blocks = Vec::with_capacity(bytes.len().div_ceil(64));
        let mut chunks = bytes.chunks_exact(64);
        for chunk in chunks.by_ref() {
            blocks.push(block_masks(chunk.try_into().expect("64 bytes")));
        }
        if !chunks.remainder().is_empty() {
            // Zero bytes are of no class.
            let mut last = [0u8; 64];
            last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
            blocks.push(block_masks(&last));
        }
        TextMasks {
            len: bytes.len(),
            blocks,
        }
    }

    /// The mask of `class` in block `k` (none past the end).
    fn mask(&self, k: usize, class: Class) -> u64 {
        self.blocks.get(k).map_or(0, |b| b[class as usize])
    }

    /// Whether the byte at `at` is of `class` (false past the end).
    pub fn is(&self, at: usize, class: Class) -> bool {
        self.mask(at / 64, class) >> (at % 64) & 1 == 1
    }

    /// The first position at or after `from` of a byte of `class`.
    pub fn next(&self, from: usize, class: Class) -> Option<usize> {
        let mut k = from / 64;
        let mut bits = self.mask(k, class) & !low_bits(from % 64);
        while bits == 0 {
            k += 1;
            if k >= self.blocks.len() {
                return None;
            }
            bits = self.mask(k, class);
        }
        Some(k * 64 + bits.trailing_zeros() as usize)
    }

    /// The maximal run of bytes of `class` around position `at` (which is in it).
    pub fn run_around(&self, at: usize, class: Class) -> Range<usize> {
        let (mut k, bit) = (at / 64, at % 64);
        let mut outside = !self.mask(k, class) & low_bits(bit);
        while outside == 0 && k > 0 {
            k -= 1;
            outside = !self.mask(k, class);
        }
        let start = if outside == 0 {
            0
        } else {
            k * 64 + 64 - outside.leading_zeros() as usize
        };
        let mut k = at / 64;
        // Past the last block every byte is outside, so this ends.
        let mut outside = !self.mask(k, class) & !low_bits(bit);
        while outside == 0 {
            k += 1;
            outside = !self.mask(k, class);
        }
        start..(k * 64 + outside.trailing_zeros() as usize).min(self.len)
    }
}

impl TextMasks {
    /// The maximal runs of `class` at least `least` bytes long (`least` at most 64),
    /// in order: where `least` bytes in a row are of the class, found for 64 starts at a
    /// time by and-ing the masks of this block and the next with shifted copies.
    pub fn long_runs(&self, class: Class, least: usize) -> Vec<Range<usize>> {
        let mut runs = Vec::new();
        // Positions before `done_to` are in runs already found.
        let (mut k, mut done_to) = (0, 0usize);
        while k < self.blocks.len() {
            let pair = u128::from(self.mask(k, class)) | (u128::from(self.mask(k + 1, class)) << 64);
            // Bit i: bytes i..i+have are all of the class; doubling `have` each step.
            let (mut starts, mut have) = (pair, 1);
            while have < least {
                let step = have.min(least - have);
                starts &= starts >> step;
                have += step;
            }
            // A run found in an earlier block may end in this one (`k` is where it ends).
            let mut starts = starts as u64 & !low_bits(done_to.saturating_sub(k * 64));
            while starts != 0 {
                let run = self.run_around(k * 64 + starts.trailing_zeros() as usize, class);
                done_to = run.end;
                runs.push(run);
                if done_to >= (k + 1) * 64 {
                    break;
                }
                starts &= !low_bits(done_to % 64);
            }
            k = (k + 1).max(done_to / 64);
        }
        runs
    }
}

/// The bits below `bit` (at most 63).
fn low_bits(bit: usize) -> u64 {
    (1u64 << bit) - 1
}

/// The masks of one block.
fn block_masks(block: &[u8; 64]) -> [u64; CLASSES] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return sse2::block_masks(block);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return by_bytes(block);
}

/// The masks a byte at a time, for targets without SSE2 (and as the tests' reference).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2", not(test)), allow(dead_code))]
fn by_bytes(block: &[u8; 64]) -> [u64; CLASSES] {
    let mut masks = [0u64; CLASSES];
    for (i, &b) in block.iter().enumerate() {
        for class in ALL {
            masks[class as usize] |= u64::from(is_of(class, b)) << i;
        }
    }
    masks
}

/// The masks with SSE2 compares, sixteen bytes at a time (`safe_arch` wraps the
/// intrinsics, so no `unsafe` here).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::{Class, CLASSES};
    use safe_arch::{
        bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i, min_u8_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i, sub_i8_m128i,
    };

    fn splat(b: u8) -> m128i {
        set_splat_i8_m128i(b as i8)
    }

    /// Bytes equal to `b`.
    fn equal(v: m128i, b: u8) -> m128i {
        cmp_eq_mask_i8_m128i(v, splat(b))
    }

    /// Bytes in `low..=high`: shifted down by `low`, they are at most `high - low`.
    fn within(v: m128i, low: u8, high: u8) -> m128i {
        let shifted = sub_i8_m128i(v, splat(low));
        cmp_eq_mask_i8_m128i(min_u8_m128i(shifted, splat(high - low)), shifted)
    }

    fn any(lanes: &[m128i]) -> m128i {
        lanes.iter().fold(splat(0), |all, &lane| bitor_m128i(all, lane))
    }

    pub(super) fn block_masks(block: &[u8; 64]) -> [u64; CLASSES] {
        let mut masks = [0u64; CLASSES];
        for (k, chunk) in block.chunks_exact(16).enumerate() {
            let v = load_unaligned_m128i(chunk.try_into().expect("sixteen bytes"));
            let digit = within(v, b'0', b'9');
            let upper = within(v, b'A', b'Z');
            let lower = within(v, b'a', b'z');
            let underscore = equal(v, b'_');
            let (dash, dot) = (equal(v, b'-'), equal(v, b'.'));
            let word = any(&[digit, upper, lower, underscore]);
            let lanes: [(Class, m128i); CLASSES] = [
                (Class::Word, word),
                (Class::Path, any(&[word, equal(v, b'~'), dot, equal(v, b'/'), dash])),
                (Class::Ident, any(&[word, equal(v, b'#'), dash])),
                (Class::Numeric, any(&[digit, dot, equal(v, b','), equal(v, b'$')])),
                (Class::Digit, digit),
                (Class::UpperOrDigit, bitor_m128i(upper, digit)),
                (Class::Hex, bitor_m128i(digit, within(v, b'a', b'f'))),
                (Class::UnderscoreOrE, bitor_m128i(underscore, equal(v, b'E'))),
                (Class::UnderscoreOrUpper, bitor_m128i(underscore, upper)),
            ];
            for (class, lane) in lanes {
                masks[class as usize] |= u64::from(move_mask_i8_m128i(lane) as u16) << (16 * k);
            }
        }
        masks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every byte value is classed as the byte test says, by the masks in use and
        /// by the byte-at-a-time ones.
        #[test]
        fn masks_class_every_byte(bytes in proptest::collection::vec(any::<u8>(), 64)) {
            let block: [u8; 64] = bytes.clone().try_into().expect("64 bytes");
            prop_assert_eq!(block_masks(&block), by_bytes(&block));
            for class in ALL {
                for (i, &b) in bytes.iter().enumerate() {
                    prop_assert_eq!(by_bytes(&block)[class as usize] >> i & 1 == 1, is_of(class, b));
                }
            }
        }

        /// `next` and `run_around` answer as a walk over the bytes does, across block
        /// edges and at both ends of the text.
        #[test]
        fn next_and_runs_match_a_byte_walk(text in "[a-f_E/.#0-9 Z-]{0,300}", from in 0..320usize) {
            let masks = TextMasks::of(&text);
            let bytes = text.as_bytes();
            for class in ALL {
                let want = (from.min(bytes.len())..bytes.len()).find(|&i| is_of(class, bytes[i]));
                prop_assert_eq!(masks.next(from, class), want);
                for at in (0..bytes.len()).filter(|&i| is_of(class, bytes[i])) {
                    let start = (0..at).rev().find(|&i| !is_of(class, bytes[i])).map_or(0, |i| i + 1);
                    let end = (at..bytes.len()).find(|&i| !is_of(class, bytes[i])).unwrap_or(bytes.len());
                    prop_assert_eq!(masks.run_around(at, class), start..end);
                }
                prop_assert!(!masks.is(bytes.len(), class));
                for least in [1, 8, 12] {
                    let mut want: Vec<Range<usize>> = Vec::new();
                    for at in (0..bytes.len()).filter(|&i| is_of(class, bytes[i])) {
                        let run = masks.run_around(at, class);
                        if run.len() >= least && want.last() != Some(&run) {
                            want.push(run);
                        }
                    }
                    prop_assert_eq!(masks.long_runs(class, least), want);
                }
            }
        }
    }
}
