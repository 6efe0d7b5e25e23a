//! [`Protocol`]: Teeworlds 0.6 (and DDNet) or 0.7.

/// Which Teeworlds network protocol numbers net messages
/// ([`crate::netmsg`]) and snapshot objects ([`crate::snapshot::objects`]).
///
/// ```
/// use gamefmt::Protocol;
/// assert_eq!(Protocol::of_net_version("0.7 802f1be60a05665f"), Protocol::V07);
/// assert_eq!(Protocol::of_net_version("0.6 626fce9a778df4d4"), Protocol::V06);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Protocol {
    /// Teeworlds 0.6 and DDNet.
    V06,
    /// Teeworlds 0.7.
    V07,
}

impl Protocol {
    /// The protocol of a demo's net version string: 0.7 for `"0.7 …"`,
    /// 0.6/DDNet otherwise.
    #[must_use]
    pub fn of_net_version(net_version: &str) -> Self {
        if net_version.starts_with("0.7") {
            Self::V07
        } else {
            Self::V06
        }
    }
}
