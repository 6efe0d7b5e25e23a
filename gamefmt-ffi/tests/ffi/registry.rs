//! The C ABI's format registry covers every format the core knows:
//! `gamefmt_detect` names each [`gamefmt::Format`] (none is `Unknown`),
//! each by a different enumerator.

use gamefmt::Format;
use gamefmt_ffi::{GamefmtFormat, gamefmt_detect};

#[test]
fn detect_names_every_format() {
    let mut seen: Vec<GamefmtFormat> = Vec::new();
    for format in Format::ALL {
        let magic = format.magic();
        // SAFETY: `magic` is a live slice of `magic.len()` bytes.
        #[allow(unsafe_code)]
        let detected = unsafe { gamefmt_detect(magic.as_ptr(), magic.len()) };
        assert_ne!(
            detected,
            GamefmtFormat::Unknown,
            "the C ABI does not know {}",
            format.name()
        );
        assert!(
            !seen.contains(&detected),
            "{} shares an enumerator",
            format.name()
        );
        seen.push(detected);
    }
}
