//! slpz oracle: `slpzp make DIR OUT` compresses every .slp of DIR with the
//! slpz crate into OUT/<name>.slpz (checking slpz's own round trip);
//! `slpzp check DIR OUT` decodes each with gamefmt and compares with the
//! .slp; `slpzp speed OUT N` times both decoders.
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::Path::new(&args[2]);
    match args[1].as_str() {
        "make" => {
            let out = std::path::Path::new(&args[3]);
            std::fs::create_dir_all(out).unwrap();
            let mut c = slpz::Compressor::new(3).unwrap();
            let mut d = slpz::Decompressor::new().unwrap();
            let (mut ok, mut refused) = (0, 0);
            let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "slp")).collect();
            names.sort();
            for p in names {
                let slp = std::fs::read(&p).unwrap();
                match slpz::compress(&mut c, &slp) {
                    Ok(z) => {
                        assert_eq!(slpz::decompress(&mut d, &z).unwrap(), slp, "{p:?}");
                        std::fs::write(out.join(format!("{}z", p.file_name().unwrap().to_string_lossy())), z).unwrap();
                        ok += 1;
                    }
                    Err(_) => refused += 1,
                }
            }
            println!("slpz compressed {ok}, refused {refused}");
        }
        "check" => {
            let out = std::path::Path::new(&args[3]);
            let (mut same, mut differ) = (0, 0);
            for e in std::fs::read_dir(out).unwrap() {
                let p = e.unwrap().path();
                let z = std::fs::read(&p).unwrap();
                let name = p.file_name().unwrap().to_string_lossy().trim_end_matches('z').to_string();
                let slp = std::fs::read(dir.join(&name)).unwrap();
                assert!(gamefmt::slippi::is_slpz(&z), "{name}");
                match gamefmt::slippi::decompress_slpz(&z) {
                    Ok(v) if v == slp => same += 1,
                    other => { differ += 1; eprintln!("{name}: {:?}", other.map(|v| v.len())); }
                }
            }
            println!("gamefmt decoded {same} .slpz to the original .slp byte for byte, {differ} differ");
        }
        "speed" => {
            let n: usize = args[3].parse().unwrap();
            let files: Vec<Vec<u8>> = std::fs::read_dir(dir).unwrap().map(|e| std::fs::read(e.unwrap().path()).unwrap()).collect();
            let mut d = slpz::Decompressor::new().unwrap();
            let total: usize = files.iter().map(|z| slpz::decompress(&mut d, z).unwrap().len()).sum();
            for round in 0..3 {
                let t = Instant::now();
                for _ in 0..n { for z in &files { std::hint::black_box(slpz::decompress(&mut d, z).unwrap()); } }
                let a = t.elapsed().as_secs_f64();
                let t = Instant::now();
                for _ in 0..n { for z in &files { std::hint::black_box(gamefmt::slippi::decompress_slpz(z).unwrap()); } }
                let b = t.elapsed().as_secs_f64();
                let t = Instant::now();
                for _ in 0..n { for z in &files { std::hint::black_box(zstd_only(z)); } }
                let c = t.elapsed().as_secs_f64();
                println!("  ruzstd alone: {:.0}% of gamefmt's time", 100.0 * c / b);
                let mb = (total * n) as f64 / 1e6;
                println!("round {round}: slpz crate {:.0} MB/s, gamefmt {:.0} MB/s (ratio gamefmt/slpz {:.2})", mb / a, mb / b, a / b);
            }
        }
        _ => panic!("make | check | speed"),
    }
}

#[allow(dead_code)]
pub fn zstd_only(z: &[u8]) -> usize {
    use std::io::Read;
    let at = u32::from_be_bytes(z[16..20].try_into().unwrap()) as usize;
    let mut input = &z[at..];
    let mut d = ruzstd::decoding::StreamingDecoder::new(&mut input).unwrap();
    let mut out = Vec::new();
    d.read_to_end(&mut out).unwrap();
    out.len()
}
