//! A bounded walk over a UBJSON value tree.

use gamefmt::slippi::ubjson::Value;

use crate::touch;

/// Values visited at most per walk: a counted container of payload-less
/// values (`[$Z#L...`) may claim 2^62 elements without bytes behind them,
/// which the entries iterator yields faithfully; the walk stops instead.
const BUDGET: usize = 100_000;

/// Visits every value under `v` (depth-first, at most [`BUDGET`] values).
pub fn walk(v: Value<'_>) {
    let mut budget = BUDGET;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        touch((v.as_int(), v.as_str(), v.as_object()));
        let c = match v {
            Value::Array(c) | Value::Object(c) => c,
            _ => continue,
        };
        touch(c.is_object());
        for entry in c.entries() {
            if budget == 0 {
                return;
            }
            budget -= 1;
            match entry {
                Ok((key, value)) => {
                    touch(key);
                    stack.push(value);
                }
                Err(e) => touch(e),
            }
        }
        if c.is_object() {
            touch(c.get("players"));
        }
    }
}
