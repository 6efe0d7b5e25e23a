//! The inputs of the `gamefmt` command, as a library: paths expanded
//! (directories recursively, `-` for stdin), each opened as one stream of
//! bytes and decompressed on the fly (gzip, zstd, xz), with the progress
//! bar they count into; and `gamefmt watch` ([`watch`]), which Python's
//! `gamefmt.watch` runs too. The command itself is `src/main.rs`; the decoders
//! are the `gamefmt` crate.
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! let files = gamefmt_cli::input::expand(&[std::path::PathBuf::from("-")])?;
//! assert_eq!(files, [std::path::PathBuf::from("-")]);
//! # Ok(()) }
//! ```

pub mod input;
pub mod watch;
