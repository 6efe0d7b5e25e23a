//! [`Labelled`]: names the file each output line comes from, when one
//! command reads several files.
//!
//! A JSON line `{...}` becomes `{"file":"NAME",...}`; a text line becomes
//! `NAME: text`. Lines are labelled as they pass, so a long dump streams
//! through without being held.

use std::io::{self, Write};

/// A writer that labels every line it is given with the file's name.
pub struct Labelled<W> {
    inner: W,
    /// What replaces a JSON line's `{`, or starts a text line.
    label: Vec<u8>,
    json: bool,
    at_line_start: bool,
}

impl<W: Write> Labelled<W> {
    /// Labels JSON lines (`json`) or text lines with `name`.
    pub fn new(inner: W, name: &str, json: bool) -> Self {
        let label = if json {
            let name = serde_json::Value::from(name);
            format!("{{\"file\":{name},").into_bytes()
        } else {
            format!("{name}: ").into_bytes()
        };
        Self {
            inner,
            label,
            json,
            at_line_start: true,
        }
    }
}

impl<W: Write> Write for Labelled<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            if self.at_line_start {
                self.inner.write_all(&self.label)?;
                self.at_line_start = false;
                if self.json && rest.first() == Some(&b'{') {
                    rest = rest.get(1..).unwrap_or_default();
                    continue;
                }
            }
            let (line, after) = match rest.iter().position(|&b| b == b'\n') {
                Some(n) => {
                    self.at_line_start = true;
                    rest.split_at(n.saturating_add(1))
                }
                None => (rest, &[][..]),
            };
            self.inner.write_all(line)?;
            rest = after;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
