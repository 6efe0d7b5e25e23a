//! With `DDNET_SRC` naming a DDNet source checkout (its `src` folder
//! inside), compiles DDNet's own snapshot code with the bridge in
//! `ddnet/shim.cpp`, and its demo recorder with `ddnet/demo_shim.cpp`, and
//! sets `cfg(ddnet)`; without it, the DDNet rows are
//! left out. DDNet's sources are never copied here.
use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ddnet)");
    println!("cargo::rerun-if-env-changed=DDNET_SRC");
    println!("cargo::rerun-if-changed=ddnet");
    let Some(root) = std::env::var_os("DDNET_SRC") else {
        println!("cargo::warning=DDNET_SRC not set: no DDNet C++ rows");
        return;
    };
    let src = PathBuf::from(root).join("src");
    cc::Build::new()
        .cpp(true)
        .std("c++20")
        .opt_level(2)
        .include("ddnet/include")
        .include(&src)
        .file("ddnet/shim.cpp")
        .file(src.join("engine/shared/snapshot.cpp"))
        .file(src.join("engine/shared/compression.cpp"))
        .file(src.join("base/mem.cpp"))
        .file(src.join("base/bytes.cpp"))
        // DDNet's demo recorder (src/bin/demo_record.rs) with the engine
        // stubs of `ddnet/demo_shim.cpp`; one archive, so that the linker
        // resolves the recorder's calls into the snapshot code.
        .file("ddnet/demo_shim.cpp")
        .file(src.join("engine/shared/demo.cpp"))
        .file(src.join("engine/shared/huffman.cpp"))
        .file(src.join("base/str.cpp"))
        .warnings(false)
        .compile("ddnet_snapshot");
    println!("cargo::rustc-cfg=ddnet");
}
