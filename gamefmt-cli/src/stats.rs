//! `gamefmt stats`: a replay's stats (`gamefmt::slippi::stats`), as a
//! per-player table, as the vocabulary's JSON (`--json`), or as slippi-js's
//! own `getStats()` JSON (`--slippi-js`; `getStadiumStats()` for Target
//! Test and Home-Run Contest games).

use std::io::Write;

use gamefmt::slippi::stats::SlippiStats;
use gamefmt::slippi::{
    Event, GameStart, HEADER_LEN, Item, Reader, StartingCharacters, character_name, stage_name,
};

use crate::{CliError, Ctx};
use gamefmt_cli::input::Input;

/// How `stats` prints.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// A per-player table.
    Text,
    /// The vocabulary's `Serialize` (`--json`).
    Json,
    /// slippi-js's `getStats()` / `getStadiumStats()` (`--slippi-js`).
    SlippiJs,
}

/// `gamefmt stats` for a replay: every event through [`SlippiStats`],
/// then the output. Damage after Game Start ends the events like a
/// truncation (the stats of the events before it are printed, stderr says
/// why); before it, the file is refused.
pub fn stats(
    input: &mut Input,
    output: Output,
    ctx: &mut Ctx,
    out: &mut dyn Write,
    warnings: &mut Vec<String>,
) -> Result<(), CliError> {
    let mut stats = Box::new(SlippiStats::new());
    let mut start: Option<Vec<u8>> = None;
    let mut characters: Option<StartingCharacters> = None;
    let mut reader = Reader::new(&mut *input);
    let mut first = true;
    loop {
        let in_raw = reader.decoder().in_raw();
        let event = match reader.next() {
            Some(Ok(Item::Event(event))) => event,
            Some(Ok(_)) => continue,
            None => break,
            // Damage in the metadata, after the events: the stats are whole.
            Some(Err(e)) if !in_raw && e.decode_error().is_some() => break,
            Some(Err(e)) if start.is_some() => {
                warnings.push(format!("events end early: {}", CliError::from(e)));
                break;
            }
            Some(Err(e)) => return Err(e.into()),
        };
        if first {
            if let Event::EventPayloads(p) = &event {
                p.report_quirks(HEADER_LEN, ctx.strict, &mut ctx.warnings)?;
            }
            first = false;
        }
        if let Event::GameStart(g) = &event
            && start.is_none()
        {
            start = Some(g.bytes().to_vec());
        }
        StartingCharacters::track(&mut characters, &event);
        stats.push(&event);
    }
    drop(reader);
    input.finish()?;
    stats.finish();
    if !stats.has_stats() {
        return Err(CliError::Invalid(
            "no stats: the game's settings never arrived (slippi-js getStats() is undefined)"
                .into(),
        ));
    }
    if stats.slippi_js_would_throw() {
        warnings.push("slippi-js would throw instead of giving these stats".into());
    }
    if stats.overflowed() {
        warnings.push("a stats list went past its cap: the stats are short".into());
    }
    let start = start.as_deref().and_then(|b| match Event::parse(b) {
        Event::GameStart(g) => Some(g),
        _ => None,
    });
    // Written straight from the `Serialize` impls, in their key order.
    fn line(out: &mut dyn Write, value: &dyn erased::Line) -> Result<(), CliError> {
        value.write(&mut *out)?;
        out.write_all(b"\n")?;
        Ok(())
    }
    match output {
        Output::Json => line(out, &&*stats)?,
        Output::SlippiJs => match stats.slippi_js_stadium() {
            Some(stadium) => line(out, &stadium)?,
            None => line(out, &stats.slippi_js())?,
        },
        Output::Text => table(&stats, start.as_ref(), characters.as_ref(), out)?,
    }
    Ok(())
}

mod erased {
    //! One JSON line from any `Serialize` value, without a `Value` between.
    use std::io::Write;

    /// A value written as compact JSON.
    pub trait Line {
        /// Writes it to `out`.
        fn write(&self, out: &mut dyn Write) -> std::io::Result<()>;
    }

    impl<T: serde::Serialize> Line for T {
        fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
            serde_json::to_writer(out, self).map_err(std::io::Error::other)
        }
    }
}

/// `part / total` as a percentage, `-` without a total.
fn percent(count: Option<f64>, total: f64) -> String {
    match count {
        Some(c) if total > 0.0 => format!("{:.0}%", c * 100.0 / total),
        _ => "-".into(),
    }
}

/// A ratio with one decimal, `-` when there is none.
fn ratio(r: Option<f64>) -> String {
    r.map_or_else(|| "-".into(), |r| format!("{r:.1}"))
}

/// The per-player table: a line about the game, then one row per player.
fn table(
    stats: &SlippiStats,
    start: Option<&GameStart<'_>>,
    characters: Option<&StartingCharacters>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let frames = stats.playable_frame_count();
    let seconds = frames / 60;
    let stage = start.and_then(GameStart::stage);
    let stage = stage.map_or_else(
        || "unknown stage".to_owned(),
        |s| stage_name(s).map_or_else(|| format!("stage {s}"), str::to_owned),
    );
    writeln!(
        out,
        "{stage}, {frames} playable frames ({}:{:02}), {}",
        seconds / 60,
        seconds % 60,
        if stats.game_complete() {
            "game complete"
        } else {
            "game not complete"
        }
    )?;
    let overall = stats.overall();
    let header = [
        "port",
        "character",
        "kills",
        "deaths",
        "damage",
        "openings",
        "openings/kill",
        "damage/opening",
        "neutral wins",
        "counter hits",
        "good trades",
        "inputs/min",
        "l-cancel",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| (*h).to_owned()).collect()];
    for o in &overall {
        let index = o.player_index;
        let character = characters
            .and_then(|c| c.get(usize::from(index)))
            .or_else(|| {
                start
                    .and_then(|g| g.player(usize::from(index)))
                    .and_then(|p| p.character())
            })
            .and_then(character_name)
            .unwrap_or("?");
        let deaths = stats
            .stocks()
            .iter()
            .filter(|k| k.player_index == index && k.end_frame.is_some())
            .count();
        let l_cancel = stats
            .action_counts()
            .iter()
            .find(|a| a.player_index == index)
            .map(|a| {
                let l = a.l_cancel_count;
                let tries = l.success.saturating_add(l.fail);
                percent(Some(f64::from(l.success)), f64::from(tries))
            })
            .unwrap_or_else(|| "-".into());
        rows.push(vec![
            u16::from(index).saturating_add(1).to_string(),
            character.to_owned(),
            o.kill_count.to_string(),
            if stats.stocks().is_empty() {
                "-".into()
            } else {
                deaths.to_string()
            },
            format!("{:.1}", o.total_damage),
            o.conversion_count.to_string(),
            ratio(o.openings_per_kill.ratio),
            ratio(o.damage_per_opening.ratio),
            percent(o.neutral_win_ratio.count, o.neutral_win_ratio.total),
            percent(o.counter_hit_ratio.count, o.counter_hit_ratio.total),
            percent(
                o.beneficial_trade_ratio.count,
                o.beneficial_trade_ratio.total,
            ),
            ratio(o.inputs_per_minute.ratio),
            l_cancel,
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (c, (cell, width)) in row.iter().zip(&widths).enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = width.saturating_sub(cell.chars().count());
            // Text left, numbers right.
            if c <= 1 {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            } else {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
