//! The input text as read: the bytes held once, checked to be UTF-8 once, and seen as a
//! `&str` from then on.
//!
//! A `String` would need std's UTF-8 check (a fifth of a large load) and a buffer of its
//! own; here the check is `simdutf8`'s and the bytes stay where they were read, which may
//! be a window of a larger buffer (a read aligned to pages, see `read.rs`). `self_cell`
//! keeps the checked `&str` beside the bytes it points into, without `unsafe` here.

use std::fmt;
use std::ops::{Deref, Range};

/// Bytes read and the window of them that is the text, or a text already checked (a
/// `String`: text read on from an earlier read, joined to it).
enum Held {
    Read { bytes: Vec<u8>, window: Range<usize> },
    Checked(String),
}

impl Held {
    /// The text, checked unless it is a `String`.
    fn text(&self) -> Result<&str, simdutf8::basic::Utf8Error> {
        match self {
            Held::Read { bytes, window } => simdutf8::basic::from_utf8(&bytes[window.clone()]),
            Held::Checked(text) => Ok(text.as_str()),
        }
    }
}

type Str<'a> = &'a str;

self_cell::self_cell!(
    /// The text of an input, exactly as read, checked to be UTF-8.
    pub struct SourceText {
        owner: Held,
        #[covariant]
        dependent: Str,
    }
);

impl SourceText {
    /// The text in `bytes[window]`, or the bytes back when it is not UTF-8 (the caller
    /// then names the first bad byte, which the fast check does not say).
    pub(super) fn from_window(bytes: Vec<u8>, window: Range<usize>) -> Result<SourceText, Vec<u8>> {
        SourceText::try_new_or_recover(Held::Read { bytes, window }, Held::text).map_err(|(held, _)| match held {
            Held::Read { bytes, .. } => bytes,
            Held::Checked(text) => text.into_bytes(),
        })
    }

    /// The text that is all of `bytes`, or the bytes back when it is not UTF-8.
    pub(super) fn from_bytes(bytes: Vec<u8>) -> Result<SourceText, Vec<u8>> {
        let window = 0..bytes.len();
        SourceText::from_window(bytes, window)
    }

    /// Text already known to be UTF-8 (a `String` is: it is not checked again, which
    /// for a followed log would read the whole file at every append).
    pub fn from_string(text: String) -> SourceText {
        SourceText::try_new(Held::Checked(text), Held::text).expect("a String is UTF-8")
    }

    /// `more` after the text. Held as a `String` from then on (the bytes read are
    /// checked to be UTF-8 once more, the first time), which grows by doubling: a text
    /// that grows by what a followed log appends costs what was appended.
    pub(super) fn push_str(&mut self, more: &str) {
        let this = std::mem::replace(self, SourceText::from_string(String::new()));
        let mut text = match this.into_owner() {
            Held::Checked(text) => text,
            Held::Read { mut bytes, window } => {
                bytes.truncate(window.end);
                bytes.drain(..window.start);
                String::from_utf8(bytes).expect("the window was checked to be UTF-8 when read")
            }
        };
        text.push_str(more);
        *self = SourceText::from_string(text);
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        self.borrow_dependent()
    }
}

impl Deref for SourceText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for SourceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for SourceText {
    fn eq(&self, other: &SourceText) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for SourceText {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_of_the_bytes_is_the_text() {
        let text = SourceText::from_window(b"..{\"a\": \"\xc3\xa9\"}..".to_vec(), 2..13).expect("UTF-8");
        assert_eq!(&*text, "{\"a\": \"é\"}");
    }

    #[test]
    fn text_pushed_goes_after_the_window_read_and_after_text_pushed_before() {
        let mut text = SourceText::from_window(b"..{\"a\": 1}\n..".to_vec(), 2..11).expect("UTF-8");
        text.push_str("{\"b\": \"\u{e9}\"}\n");
        assert_eq!(&*text, "{\"a\": 1}\n{\"b\": \"\u{e9}\"}\n");
        text.push_str("{}\n");
        assert_eq!(&*text, "{\"a\": 1}\n{\"b\": \"\u{e9}\"}\n{}\n");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_wherever_they_stand() {
        for bad in [&b"\xff{}"[..], b"{\"a\": \"\xc3\"}", b"{}\xe2\x82"] {
            // The bytes come back whole, for the error to name the bad one.
            assert_eq!(SourceText::from_bytes(bad.to_vec()).expect_err("not UTF-8"), bad);
        }
        // Outside the window they do not matter.
        assert!(SourceText::from_window(b"\xff{}\xff".to_vec(), 1..3).is_ok());
    }
}
