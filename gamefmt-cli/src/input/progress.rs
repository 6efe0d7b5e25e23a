//! The progress bar: on stderr when stderr is a terminal (files, bytes,
//! rate, ETA), hidden otherwise. A hidden bar still counts the bytes read,
//! which the closing summary reports.
//!
//! ```
//! // Under a test harness stderr is no terminal: the bar is hidden.
//! let bar = gamefmt_cli::input::progress::bar(1 << 20, 3);
//! bar.inc(512);
//! assert_eq!(bar.position(), 512);
//! ```

use std::format;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total_bytes` (the inputs' sizes on disk; 0 when unknown,
/// as for stdin), drawn only when stderr is a terminal.
pub fn bar(total_bytes: u64, files: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total_bytes), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {msg} files, {bytes}/{total_bytes} ({bytes_per_sec}, ETA {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(format!("0/{files}"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar.tick();
    bar
}
