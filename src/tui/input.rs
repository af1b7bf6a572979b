//! Terminal input bytes → keys and mouse events. ctxlens parses its own input instead of
//! using crossterm's reader, whose parser waits forever for the end of a sequence that
//! starts `ESC [ ?` (Alt+[ then ?): every key after it, `q` and Esc included, was
//! swallowed. Here every sequence either completes, or is dropped as soon as a byte shows
//! it cannot be one — a terminal's reply, a key we do not bind, or garbage never holds
//! later keys hostage. Pure and incremental, so it is unit-tested and fuzzed.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What the bytes said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A key.
    Key(KeyEvent),
    /// The mouse wheel at (column, row), 0-based: positive scrolls down.
    Wheel(u16, u16, i32),
    /// A left click at (column, row), 0-based.
    Click(u16, u16),
}

/// The longest sequence kept while waiting for its end; longer is garbage.
const MAX_SEQUENCE: usize = 64;

/// An incremental parser: bytes in, inputs out. A lone ESC stays pending until
/// [`Parser::flush`] (the reader calls it when no byte follows within a few ms).
#[derive(Debug, Default, Clone)]
pub struct Parser {
    pending: Vec<u8>,
}

/// What a parse step made of the pending bytes.
enum Step {
    /// An input, and how many bytes it used.
    Done(Option<Input>, usize),
    /// The bytes so far may still become a sequence.
    NeedMore,
}

// `Option` because every caller returns "an input, or none".
#[allow(clippy::unnecessary_wraps)]
fn key(code: KeyCode, modifiers: KeyModifiers) -> Option<Input> {
    Some(Input::Key(KeyEvent::new(code, modifiers)))
}

impl Parser {
    /// A parser with nothing pending.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Feeds `bytes`; returns the inputs they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Input> {
        self.pending.extend_from_slice(bytes);
        let mut out = Vec::new();
        loop {
            match parse(&self.pending) {
                Step::Done(input, used) => {
                    out.extend(input);
                    self.pending.drain(..used.max(1).min(self.pending.len()));
                    if self.pending.is_empty() {
                        break;
                    }
                }
                Step::NeedMore if self.pending.len() > MAX_SEQUENCE => {
                    self.pending.clear();
                    break;
                }
                Step::NeedMore => break,
            }
        }
        out
    }

    /// No more bytes are coming soon: a pending lone ESC is the Esc key, and anything
    /// else unfinished is dropped.
    pub fn flush(&mut self) -> Vec<Input> {
        let out = if self.pending == [0x1b] {
            key(KeyCode::Esc, KeyModifiers::NONE).into_iter().collect()
        } else {
            Vec::new()
        };
        self.pending.clear();
        out
    }

    /// Whether bytes wait for the rest of a sequence.
    pub fn is_pending(&self) -> bool {
        !self.pending.is_empty()
    }
}

/// One step over `buf` (not empty).
fn parse(buf: &[u8]) -> Step {
    match buf[0] {
        0x1b => escape(buf),
        b'\r' | b'\n' => Step::Done(key(KeyCode::Enter, KeyModifiers::NONE), 1),
        b'\t' => Step::Done(key(KeyCode::Tab, KeyModifiers::NONE), 1),
        0x7f | 0x08 => Step::Done(key(KeyCode::Backspace, KeyModifiers::NONE), 1),
        c @ 0x01..=0x1a => Step::Done(key(KeyCode::Char((b'a' + c - 1) as char), KeyModifiers::CONTROL), 1),
        0x00 | 0x1c..=0x1f => Step::Done(None, 1),
        _ => utf8(buf),
    }
}

/// A UTF-8 character.
fn utf8(buf: &[u8]) -> Step {
    let len = match buf[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Step::Done(None, 1),
    };
    if buf.len() < len {
        // Continuation bytes only: anything else shows it is broken.
        return if buf[1..].iter().all(|b| b & 0xc0 == 0x80) {
            Step::NeedMore
        } else {
            Step::Done(None, 1)
        };
    }
    match std::str::from_utf8(&buf[..len]).ok().and_then(|s| s.chars().next()) {
        Some(c) => Step::Done(key(KeyCode::Char(c), KeyModifiers::NONE), len),
        None => Step::Done(None, 1),
    }
}

/// A sequence starting with ESC.
fn escape(buf: &[u8]) -> Step {
    match buf.get(1) {
        None => Step::NeedMore,
        Some(b'[') => csi(buf),
        Some(b'O') => match buf.get(2) {
            None => Step::NeedMore,
            Some(b'A') => Step::Done(key(KeyCode::Up, KeyModifiers::NONE), 3),
            Some(b'B') => Step::Done(key(KeyCode::Down, KeyModifiers::NONE), 3),
            Some(b'C') => Step::Done(key(KeyCode::Right, KeyModifiers::NONE), 3),
            Some(b'D') => Step::Done(key(KeyCode::Left, KeyModifiers::NONE), 3),
            Some(b'H') => Step::Done(key(KeyCode::Home, KeyModifiers::NONE), 3),
            Some(b'F') => Step::Done(key(KeyCode::End, KeyModifiers::NONE), 3),
            Some(0x40..=0x7e) => Step::Done(None, 3),
            Some(_) => Step::Done(None, 2),
        },
        // ESC ESC: the first is the Esc key.
        Some(0x1b) => Step::Done(key(KeyCode::Esc, KeyModifiers::NONE), 1),
        // Alt+key: bound to nothing; dropped whole so it never acts as the bare key.
        Some(_) => match utf8(&buf[1..]) {
            Step::Done(_, used) => Step::Done(None, 1 + used),
            Step::NeedMore => Step::NeedMore,
        },
    }
}

/// A control sequence: `ESC [`, parameter bytes (0x30–0x3F), intermediate bytes
/// (0x20–0x2F), a final byte (0x40–0x7E). Any other byte ends it as garbage.
fn csi(buf: &[u8]) -> Step {
    // X10 mouse: ESC [ M and three raw bytes.
    if buf.get(2) == Some(&b'M') {
        if buf.len() < 6 {
            return Step::NeedMore;
        }
        let (b, x, y) = (
            buf[3].wrapping_sub(32),
            buf[4].wrapping_sub(33),
            buf[5].wrapping_sub(33),
        );
        return Step::Done(mouse(u16::from(b), u16::from(x), u16::from(y), true), 6);
    }
    let mut end = 2;
    while let Some(&b) = buf.get(end) {
        match b {
            0x20..=0x3f => end += 1,
            0x40..=0x7e => return Step::Done(control(&buf[2..end], b), end + 1),
            // Not part of any sequence: drop what came before; the byte is parsed anew.
            _ => return Step::Done(None, end),
        }
    }
    Step::NeedMore
}

/// The input of a complete control sequence with `params` and `last`.
fn control(params: &[u8], last: u8) -> Option<Input> {
    let text = std::str::from_utf8(params).unwrap_or_default();
    if let Some(sgr) = text.strip_prefix('<') {
        // SGR mouse: ESC [ < button ; column ; row (M press, m release), 1-based.
        let numbers: Vec<u16> = sgr.split(';').filter_map(|n| n.parse().ok()).collect();
        if let [b, x, y] = numbers[..] {
            return mouse(b, x.saturating_sub(1), y.saturating_sub(1), last == b'M');
        }
        return None;
    }
    let first: u16 = text.split(';').next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let modifiers = text
        .split(';')
        .nth(1)
        .and_then(|m| m.parse::<u8>().ok())
        .map_or(KeyModifiers::NONE, |m| {
            let bits = m.saturating_sub(1);
            let mut mods = KeyModifiers::NONE;
            if bits & 1 != 0 {
                mods |= KeyModifiers::SHIFT;
            }
            if bits & 2 != 0 {
                mods |= KeyModifiers::ALT;
            }
            if bits & 4 != 0 {
                mods |= KeyModifiers::CONTROL;
            }
            mods
        });
    let code = match (last, text.starts_with('?')) {
        (_, true) => return None, // a terminal's reply (device attributes, modes)
        (b'A', _) => KeyCode::Up,
        (b'B', _) => KeyCode::Down,
        (b'C', _) => KeyCode::Right,
        (b'D', _) => KeyCode::Left,
        (b'H', _) => KeyCode::Home,
        (b'F', _) => KeyCode::End,
        (b'Z', _) => KeyCode::BackTab,
        (b'~', _) => match first {
            1 | 7 => KeyCode::Home,
            2 => KeyCode::Insert,
            3 => KeyCode::Delete,
            4 | 8 => KeyCode::End,
            5 => KeyCode::PageUp,
            6 => KeyCode::PageDown,
            _ => return None,
        },
        _ => return None,
    };
    key(code, modifiers)
}

/// A mouse report: button code `b` at 0-based (x, y); `press` for a press.
fn mouse(b: u16, x: u16, y: u16, press: bool) -> Option<Input> {
    match b & !(4 | 8 | 16) {
        64 => Some(Input::Wheel(x, y, -3)),
        65 => Some(Input::Wheel(x, y, 3)),
        0 if press => Some(Input::Click(x, y)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<Input> {
        let mut p = Parser::new();
        let mut out = p.feed(bytes);
        out.extend(p.flush());
        out
    }

    fn k(code: KeyCode) -> Input {
        Input::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn plain_keys_controls_and_utf8() {
        assert_eq!(keys(b"q"), vec![k(KeyCode::Char('q'))]);
        assert_eq!(
            keys("é😀".as_bytes()),
            vec![k(KeyCode::Char('é')), k(KeyCode::Char('😀'))]
        );
        assert_eq!(
            keys(b"\x15\r\t\x7f"),
            vec![
                Input::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
                k(KeyCode::Enter),
                k(KeyCode::Tab),
                k(KeyCode::Backspace)
            ]
        );
    }

    #[test]
    fn escape_sequences_and_a_lone_escape() {
        assert_eq!(
            keys(b"\x1b[A\x1b[6~\x1bOH"),
            vec![k(KeyCode::Up), k(KeyCode::PageDown), k(KeyCode::Home)]
        );
        assert_eq!(keys(b"\x1b"), vec![k(KeyCode::Esc)]);
        // Split across reads.
        let mut p = Parser::new();
        assert!(p.feed(b"\x1b[").is_empty());
        assert_eq!(p.feed(b"B"), vec![k(KeyCode::Down)]);
    }

    #[test]
    fn esc_bracket_question_never_swallows_the_keys_after_it() {
        // Alt+[ then ?, then q: the reproducer.
        let mut p = Parser::new();
        let mut out = p.feed(b"\x1b[");
        out.extend(p.feed(b"?"));
        out.extend(p.feed(b"q"));
        out.extend(p.feed(b"\x1b"));
        out.extend(p.flush());
        assert!(out.contains(&k(KeyCode::Esc)), "{out:?}");
        // As typed, with a pause after Alt+[: the reader flushes the half sequence, so `?`
        // and `q` are keys again.
        let mut p = Parser::new();
        let mut out = p.feed(b"\x1b[");
        out.extend(p.flush());
        out.extend(p.feed(b"?"));
        out.extend(p.feed(b"q"));
        assert_eq!(out, vec![k(KeyCode::Char('?')), k(KeyCode::Char('q'))]);
        // `q` is a final byte: it ends the bogus sequence; the next keys all arrive.
        let mut p = Parser::new();
        let mut out = p.feed(b"\x1b[?q");
        out.extend(p.feed(b"jk"));
        assert_eq!(out, vec![k(KeyCode::Char('j')), k(KeyCode::Char('k'))]);
        // A control byte ends it too, and is itself read.
        assert_eq!(keys(b"\x1b[?\r"), vec![k(KeyCode::Enter)]);
        // Garbage longer than any sequence is dropped, never kept forever.
        let mut p = Parser::new();
        let mut long = b"\x1b[".to_vec();
        long.extend(std::iter::repeat_n(b'1', 100));
        assert!(p.feed(&long).is_empty());
        assert_eq!(p.feed(b"x"), vec![k(KeyCode::Char('x'))]);
    }

    #[test]
    fn mouse_reports() {
        assert_eq!(keys(b"\x1b[<65;10;5M"), vec![Input::Wheel(9, 4, 3)]);
        assert_eq!(keys(b"\x1b[<64;1;1M"), vec![Input::Wheel(0, 0, -3)]);
        assert_eq!(keys(b"\x1b[<0;3;4M\x1b[<0;3;4m"), vec![Input::Click(2, 3)]);
        assert_eq!(keys(&[0x1b, b'[', b'M', 32, 33 + 5, 33 + 2]), vec![Input::Click(5, 2)]);
    }

    #[test]
    fn alt_keys_and_replies_are_not_bare_keys() {
        assert!(keys(b"\x1b[").is_empty());
        assert!(keys(b"\x1bq").is_empty());
        assert!(keys(b"\x1b[?1;2c").is_empty());
    }
}
