//! The terminal, owned for as long as the TUI runs: raw mode, the alternate screen and
//! mouse capture, restored on drop and by the panic hook; suspended while the user's
//! editor runs.

use std::io::stdout;

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::DefaultTerminal;

/// The terminal in TUI mode.
pub struct TerminalGuard {
    /// ratatui's terminal.
    pub terminal: DefaultTerminal,
}

impl TerminalGuard {
    /// Enters raw mode, the alternate screen and mouse capture.
    pub fn enter() -> std::io::Result<TerminalGuard> {
        // ratatui's init installs a panic hook that leaves raw mode and the alternate
        // screen; ours, chained in front, also releases the mouse.
        let terminal = ratatui::try_init()?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(stdout(), DisableMouseCapture);
            previous(info);
        }));
        execute!(stdout(), EnableMouseCapture)?;
        Ok(TerminalGuard { terminal })
    }

    /// Runs `f` with the terminal given back (cooked mode, main screen), as when an
    /// editor runs, then takes it again.
    pub fn suspended<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
        let result = f();
        if let Ok(terminal) = ratatui::try_init() {
            self.terminal = terminal;
        }
        let _ = execute!(stdout(), EnableMouseCapture);
        let _ = self.terminal.clear();
        result
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// Opens `text` in `$VISUAL`, `$EDITOR` or `vi`, and returns what was saved.
pub fn edit_in_editor(text: &str) -> Result<String, String> {
    let file = tempfile::Builder::new()
        .prefix("ctxlens-summary-")
        .suffix(".txt")
        .tempfile()
        .map_err(|e| e.to_string())?;
    std::fs::write(file.path(), text).map_err(|e| e.to_string())?;
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".to_owned());
    let status = std::process::Command::new("sh")
        .args(["-c", &format!("{editor} \"$1\""), "editor"])
        .arg(file.path())
        .status()
        .map_err(|e| format!("{editor}: {e}"))?;
    if !status.success() {
        return Err(format!("{editor} exited with {status}"));
    }
    std::fs::read_to_string(file.path()).map_err(|e| e.to_string())
}
