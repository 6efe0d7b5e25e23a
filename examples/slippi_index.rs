//! Bulk-indexing facts of a Slippi replay without walking its frames:
//! `cargo run --example slippi_index -- game.slp`.
#![allow(clippy::arithmetic_side_effects)]

use gamefmt::slippi::SlippiView;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: slippi_index FILE.slp")?;
    let bytes = std::fs::read(&path)?;
    let slp = SlippiView::parse(&bytes)?;
    let start = slp.game_start()?;
    print!(
        "{path}: version {}",
        start.version().ok_or("short Game Start")?
    );
    print!(", stage {}", start.stage().unwrap_or_default());
    for (i, p) in start.players() {
        print!(", P{}:{}", i + 1, p.character().unwrap_or_default());
    }
    match slp.game_end() {
        Some(end) => print!(", end method {}", end.method().unwrap_or_default()),
        None => print!(", no Game End found at the end of raw"),
    }
    if let Some(meta) = slp.metadata()? {
        print!(
            ", lastFrame {:?}, playedOn {:?}",
            meta.last_frame(),
            meta.played_on()
        );
        for p in meta.players() {
            let chars: Vec<_> = p.characters().collect();
            print!(", player {:?} characters {chars:?}", p.index());
        }
    }
    println!();
    Ok(())
}
