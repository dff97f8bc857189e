//! The colours of the human report. The report is written with ANSI styles in it; the
//! binary prints it through `anstream`, which takes them out where the output is not a
//! terminal or `NO_COLOR` is set, so that pipes, files and tests see plain text.

use anstyle::{AnsiColor, Style};

pub const ERROR: Style = AnsiColor::Red.on_default().bold();
pub const SAFE: Style = AnsiColor::Green.on_default().bold();
pub const THREAD: Style = AnsiColor::Cyan.on_default();
pub const LOCATION: Style = Style::new().dimmed();

/// `text` in `style`.
pub fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}
