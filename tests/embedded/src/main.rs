//! gamefmt on a Cortex-M3 (QEMU lm3s6965evb: 256 KiB flash, 64 KiB RAM).
//!
//! Reads each file named in `gamefmt-embedded.list` (in QEMU's working
//! directory) from the host through semihosting, decodes it through
//! gamefmt's `embedded-io` readers with a 4 KiB buffer (demos: the buffer
//! their largest chunk needs), and prints one line of facts:
//! `PATH format=F records=N end=E ... stack=S`, where `stack` is the peak
//! stack in bytes the decode used below its caller (measured by painting).
//! run.sh compares every line with `gamefmt inspect --json` on the host.
#![no_std]
#![no_main]

mod facts;
mod host_file;
mod stack;

use core::ffi::CStr;

use cortex_m_rt::entry;
use embedded_io::Read as _;
use semihosting::fs::File;
use semihosting::io::Read as _;
use semihosting::{println, process};

use host_file::HostFile;

/// The file list run.sh writes.
const LIST: &CStr = c"gamefmt-embedded.list";
/// The caller's buffer for teehistorian and Slippi: what the design
/// promises.
const STREAM_BUFFER: usize = 4 << 10;
/// Demo chunks must fit whole (up to 64 KiB by the format, more than this
/// board's RAM): the corpus demos' largest fits in this many bytes.
#[cfg(feature = "demo")]
const DEMO_BUFFER: usize = 12 << 10;
/// The buffers, in `.bss` (not on the stack, so the stack figures are the
/// decoders' own).
struct Buffers {
    stream: [u8; STREAM_BUFFER],
    #[cfg(feature = "demo")]
    demo: [u8; DEMO_BUFFER],
    #[cfg(feature = "map")]
    map: map::Buffers,
}

/// The buffers: zeros, so they live in `.bss` and are never built on the
/// stack (64 KiB of RAM does not hold them twice).
static mut BUFFERS: Buffers = Buffers {
    stream: [0; STREAM_BUFFER],
    #[cfg(feature = "demo")]
    demo: [0; DEMO_BUFFER],
    #[cfg(feature = "map")]
    map: map::Buffers::new(),
};

/// Room for the map's inflate state, written once at start.
#[cfg(feature = "map")]
static mut INFLATE: core::mem::MaybeUninit<gamefmt::datafile::DecompressorOxide> =
    core::mem::MaybeUninit::uninit();

#[entry]
fn main() -> ! {
    // SAFETY: the only reference ever made to BUFFERS, taken once before
    // anything else runs (no interrupts are enabled).
    let bufs = unsafe { &mut *core::ptr::addr_of_mut!(BUFFERS) };
    // The map's inflate state (11 KB) is built at run time (its
    // constructor is not const), once, into static memory: the stack keeps
    // only the decodes' own frames.
    #[cfg(feature = "map")]
    // SAFETY: the only reference ever made to INFLATE, taken once here.
    let inflate = unsafe { &mut *core::ptr::addr_of_mut!(INFLATE) }
        .write(gamefmt::datafile::DecompressorOxide::new());
    let Ok(mut list) = File::open(LIST) else {
        println!("ERROR cannot open the file list");
        process::exit(2)
    };
    let mut path = [0u8; 512];
    let mut len = 0;
    loop {
        let mut byte = [0u8; 1];
        let n = list.read(&mut byte).unwrap_or(0);
        if n == 0 || byte[0] == b'\n' {
            if len > 0 {
                run_file(&path[..len], bufs, #[cfg(feature = "map")] inflate);
            }
            len = 0;
            if n == 0 {
                break;
            }
        } else if len + 1 < path.len() {
            path[len] = byte[0];
            len += 1;
        }
    }
    println!("DONE");
    process::exit(0)
}

/// Decodes one file and prints its line.
fn run_file(
    path: &[u8],
    bufs: &mut Buffers,
    #[cfg(feature = "map")] inflate: &mut gamefmt::datafile::DecompressorOxide,
) {
    let name = core::str::from_utf8(path).unwrap_or("?");
    let mut cpath = [0u8; 513];
    cpath[..path.len()].copy_from_slice(path);
    let Ok(cpath) = CStr::from_bytes_until_nul(&cpath) else { return };
    let open = || File::open(cpath).map(HostFile);
    let mut head = [0u8; 64];
    let n = match open() {
        Ok(mut f) => f.read(&mut head).unwrap_or(0),
        Err(_) => {
            println!("{name} error=open");
            return;
        }
    };
    let Ok(file) = open() else { return };
    let base = stack::paint();
    let line = match gamefmt::Format::detect(&head[..n]) {
        #[cfg(feature = "teehistorian")]
        Some(gamefmt::Format::Teehistorian) => facts::recording(file, &mut bufs.stream),
        #[cfg(feature = "slippi")]
        Some(gamefmt::Format::Slippi) => facts::replay(file, &mut bufs.stream),
        #[cfg(feature = "demo")]
        Some(gamefmt::Format::Demo) => facts::demo(file, &mut bufs.demo),
        #[cfg(feature = "map")]
        Some(gamefmt::Format::Datafile) => map::facts(file, &mut bufs.map, inflate),
        _ => facts::Line::error("unknown-format"),
    };
    let used = stack::peak(base);
    println!("{name} {line} stack={used}");
}

#[cfg(feature = "map")]
mod map;
