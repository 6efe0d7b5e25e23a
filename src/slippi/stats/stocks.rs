//! Stocks (slippi-js `stats/stocks.ts`).

use super::common::{Post, did_lose_stock, is_dead};

/// Stocks a game has room for (over both players).
pub const MAX_STOCKS: usize = 64;

/// One stock of one player.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Stock {
    /// The player's index (port − 1; serialized as `port`, 1-based).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "port", serialize_with = "super::serialize_port")
    )]
    pub player_index: u8,
    /// The first frame the player was no longer spawning.
    pub start_frame: i32,
    /// The frame the stock was lost.
    pub end_frame: Option<i32>,
    /// Always 0, as in slippi-js.
    pub start_percent: f64,
    /// The percent the frame before it was lost.
    pub end_percent: Option<f64>,
    /// The percent at the last frame before it was lost (slippi-js does
    /// not update it on the frame it starts or is lost).
    pub current_percent: f64,
    /// Stocks remaining when it started.
    pub count: u8,
    /// The action state on the frame it was lost.
    pub death_animation: Option<u16>,
}

/// One player's stock state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct StockState {
    current: Option<usize>,
}

/// What one frame did to a player's stocks: the live events' source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StockStep {
    /// The stock at this index started.
    Started(usize),
    /// The stock at this index was lost.
    Lost(usize),
}

/// One frame of `handleStockCompute`.
pub(crate) fn compute(
    stocks: &mut heapless::Vec<Stock, MAX_STOCKS>,
    overflow: &mut bool,
    state: &mut StockState,
    player_index: u8,
    player: &Post,
    prev: Option<&Post>,
) -> Option<StockStep> {
    let current = state.current;
    match current.and_then(|i| stocks.get_mut(i)) {
        None => {
            if is_dead(player.action) {
                return None;
            }
            let index = stocks.len();
            let stock = Stock {
                player_index,
                start_frame: player.frame,
                end_frame: None,
                start_percent: 0.0,
                end_percent: None,
                current_percent: 0.0,
                count: player.stocks,
                death_animation: None,
            };
            if stocks.push(stock).is_err() {
                *overflow = true;
                return None;
            }
            state.current = Some(index);
            Some(StockStep::Started(index))
        }
        Some(stock) => match prev {
            Some(prev) if did_lose_stock(player, prev) => {
                stock.end_frame = Some(player.frame);
                stock.end_percent = Some(prev.percent);
                stock.death_animation = Some(player.action);
                state.current = None;
                current.map(StockStep::Lost)
            }
            _ => {
                stock.current_percent = player.percent;
                None
            }
        },
    }
}
