//! gamefmt for browsers and Node: the wasm module of the npm package
//! `gamefmt` (see `gamefmt-wasm/README.md`).
//!
//! Every value reaches JavaScript through the core's `Serialize` (the one
//! vocabulary, `gamefmt::vocabulary`) and `serde-wasm-bindgen`: maps
//! become plain objects, `None` becomes `null`, raw bytes a `Uint8Array`.
//! Bulk data (map tiles, image pixels, Slippi frame columns) is handed over
//! as typed arrays. Errors are thrown as the package's `GamefmtError`
//! (`kind`, `offset`, `message`); nothing here panics on any input, and
//! buffers sized from the input are reserved fallibly, so a hostile size
//! claim is an error, never a wasm trap.
//!
//! The JavaScript wrapper (`gamefmt-wasm/js/index.js`) loads the module,
//! registers the error class and adds `open(bytes)`.

#[cfg(feature = "slippi")]
mod columns;
mod decoder;
#[cfg(feature = "teeworlds")]
mod demo;
mod js;
#[cfg(feature = "teeworlds")]
mod map;
#[cfg(feature = "slippi")]
mod slippi;
#[cfg(feature = "teeworlds")]
mod teehistorian;

use gamefmt::Format;
use wasm_bindgen::prelude::*;

pub use decoder::Decoder;
pub use js::set_error_class;

/// The format of a file from its first bytes: `"datafile"`, `"demo"`,
/// `"teehistorian"`, `"slippi"`, or `undefined`.
#[wasm_bindgen]
pub fn detect(head: &[u8]) -> Option<String> {
    Format::detect(head).map(|f| f.name().to_owned())
}

/// The formats this build of the module decodes.
#[wasm_bindgen]
pub fn formats() -> Vec<String> {
    [
        #[cfg(feature = "teeworlds")]
        "datafile",
        #[cfg(feature = "teeworlds")]
        "demo",
        #[cfg(feature = "teeworlds")]
        "teehistorian",
        #[cfg(feature = "slippi")]
        "slippi",
    ]
    .map(String::from)
    .to_vec()
}

/// Opens a file of any format this build knows, told by its first bytes:
/// a `MapFile`, `DemoFile`, `TeehistorianFile` or `SlippiFile`, which
/// keeps the one copy of the bytes made in the module's memory.
///
/// # Errors
/// `unknown_format` when the first bytes match no format (or one this
/// build leaves out), or the format's structural errors.
#[wasm_bindgen]
pub fn open(bytes: Vec<u8>) -> Result<JsValue, JsValue> {
    match Format::detect(&bytes) {
        #[cfg(feature = "teeworlds")]
        Some(Format::Datafile) => map::MapFile::new(bytes).map(JsValue::from),
        #[cfg(feature = "teeworlds")]
        Some(Format::Demo) => demo::DemoFile::new(bytes).map(JsValue::from),
        #[cfg(feature = "teeworlds")]
        Some(Format::Teehistorian) => teehistorian::TeehistorianFile::new(bytes).map(JsValue::from),
        #[cfg(feature = "slippi")]
        Some(Format::Slippi) => slippi::SlippiFile::new(bytes).map(JsValue::from),
        Some(f) => Err(js::error(
            "unknown_format",
            &format!("this build of gamefmt does not decode {} files", f.name()),
            0,
        )),
        None => Err(js::error(
            "unknown_format",
            "the first bytes match no supported format",
            0,
        )),
    }
}
