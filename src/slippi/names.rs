//! Names of Melee characters and stages, by the ids a replay carries.
//!
//! Game Start and the metadata use *external* (character select screen)
//! character ids; Post-Frame Updates use *internal* (in-game) ids, which
//! differ and tell Popo from Nana. The external and stage names are the
//! ones slippi-js's `characters.getCharacterName` and
//! `stages.getStageName` return (the test suite checks them against its
//! output on the corpus); the internal table is the one in the Slippi spec's
//! Melee id list.
//!
//! ```
//! use gamefmt::slippi::{character_name, internal_character_name, stage_name};
//!
//! assert_eq!(character_name(0x13), Some("Sheik"));
//! assert_eq!(internal_character_name(0x07), Some("Sheik"));
//! assert_eq!(internal_character_name(0x0B), Some("Nana"));
//! assert_eq!(stage_name(31), Some("Battlefield"));
//! assert_eq!(stage_name(21), None);
//! ```

/// External character names, index = external id (0x00–0x20).
const EXTERNAL: [&str; 33] = [
    "Captain Falcon",
    "Donkey Kong",
    "Fox",
    "Mr. Game & Watch",
    "Kirby",
    "Bowser",
    "Link",
    "Luigi",
    "Mario",
    "Marth",
    "Mewtwo",
    "Ness",
    "Peach",
    "Pikachu",
    "Ice Climbers",
    "Jigglypuff",
    "Samus",
    "Yoshi",
    "Zelda",
    "Sheik",
    "Falco",
    "Young Link",
    "Dr. Mario",
    "Roy",
    "Pichu",
    "Ganondorf",
    "Master Hand",
    "Wireframe (Male)",
    "Wireframe (Female)",
    "Gigabowser",
    "Crazy Hand",
    "Sandbag",
    "Popo",
];

/// Internal character names, index = internal id (0x00–0x20).
const INTERNAL: [&str; 33] = [
    "Mario",
    "Fox",
    "Captain Falcon",
    "Donkey Kong",
    "Kirby",
    "Bowser",
    "Link",
    "Sheik",
    "Ness",
    "Peach",
    "Popo",
    "Nana",
    "Pikachu",
    "Samus",
    "Yoshi",
    "Jigglypuff",
    "Mewtwo",
    "Luigi",
    "Marth",
    "Zelda",
    "Young Link",
    "Dr. Mario",
    "Falco",
    "Pichu",
    "Mr. Game & Watch",
    "Ganondorf",
    "Roy",
    "Master Hand",
    "Crazy Hand",
    "Wireframe (Male)",
    "Wireframe (Female)",
    "Gigabowser",
    "Sandbag",
];

/// Stage names for ids 2–58 (VS stages and the Target Test stages); id 21
/// has no name.
const STAGES: [&str; 57] = [
    "Fountain of Dreams",
    "Pokémon Stadium",
    "Princess Peach's Castle",
    "Kongo Jungle",
    "Brinstar",
    "Corneria",
    "Yoshi's Story",
    "Onett",
    "Mute City",
    "Rainbow Cruise",
    "Jungle Japes",
    "Great Bay",
    "Hyrule Temple",
    "Brinstar Depths",
    "Yoshi's Island",
    "Green Greens",
    "Fourside",
    "Mushroom Kingdom I",
    "Mushroom Kingdom II",
    "",
    "Venom",
    "Poké Floats",
    "Big Blue",
    "Icicle Mountain",
    "Icetop",
    "Flat Zone",
    "Dream Land N64",
    "Yoshi's Island N64",
    "Kongo Jungle N64",
    "Battlefield",
    "Final Destination",
    "Target Test (Mario)",
    "Target Test (Captain Falcon)",
    "Target Test (Young Link)",
    "Target Test (Donkey Kong)",
    "Target Test (Dr. Mario)",
    "Target Test (Falco)",
    "Target Test (Fox)",
    "Target Test (Ice Climbers)",
    "Target Test (Kirby)",
    "Target Test (Bowser)",
    "Target Test (Link)",
    "Target Test (Luigi)",
    "Target Test (Marth)",
    "Target Test (Mewtwo)",
    "Target Test (Ness)",
    "Target Test (Peach)",
    "Target Test (Pichu)",
    "Target Test (Pikachu)",
    "Target Test (Jigglypuff)",
    "Target Test (Samus)",
    "Target Test (Sheik)",
    "Target Test (Yoshi)",
    "Target Test (Zelda)",
    "Target Test (Mr. Game & Watch)",
    "Target Test (Roy)",
    "Target Test (Ganondorf)",
];

/// The first stage id in the stage table.
const FIRST_STAGE: u16 = 2;
/// Home-Run Contest, the one named stage outside 2–58.
const HOME_RUN_CONTEST: u16 = 84;

/// The name of an external (character select) character id, as in Game
/// Start and the metadata; `None` above 0x20 (Popo).
#[must_use]
pub fn character_name(external: u8) -> Option<&'static str> {
    EXTERNAL.get(usize::from(external)).copied()
}

/// The name of an internal (in-game) character id, as in Post-Frame
/// Updates; `None` above 0x20 (Sandbag).
#[must_use]
pub fn internal_character_name(internal: u8) -> Option<&'static str> {
    INTERNAL.get(usize::from(internal)).copied()
}

/// The name of a stage id (Game Start 0x13); `None` for ids without one
/// (the single-player modes' other stages, 21, and anything unknown).
#[must_use]
pub fn stage_name(stage: u16) -> Option<&'static str> {
    if stage == HOME_RUN_CONTEST {
        return Some("Home-Run Contest");
    }
    let index = usize::from(stage.checked_sub(FIRST_STAGE)?);
    STAGES.get(index).copied().filter(|name| !name.is_empty())
}
