//! The client identity fields some messages carry together (0.6
//! `Cl_StartInfo`/`Cl_ChangeInfo`, 0.7 `Cl_StartInfo`/`Sv_ClientInfo`),
//! grouped in one struct each; the generated tables refer to them
//! (`tools/netmsg-gen/spec.py`, `GROUPS`), and the generator checks that
//! DDNet's datasrc still lists these fields.

use crate::error::Result;

use super::fields::Fields;
use super::lists::NetStrs;
use super::string::NetStr;

/// Skin parts of a 0.7 tee: body, marking, decoration, hands, feet, eyes.
pub const SKIN_PARTS: usize = 6;

/// The options a 0.6 `Sv_VoteOptionListAdd` carries at most.
pub const VOTE_OPTIONS: usize = 15;

/// The fifteen option descriptions of a 0.6 `Sv_VoteOptionListAdd`
/// (`m_pDescription0` to `m_pDescription14`; the first `num_options` are
/// options, the rest empty), read on request. Serialized as
/// `description0` to `description14`, the names the generated tables take
/// from datasrc.
pub type VoteDescriptions<'a> = NetStrs<'a, VOTE_OPTIONS>;

/// A client's start info or change of info (0.6 `Cl_StartInfo`,
/// `Cl_ChangeInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientInfo06<'a> {
    /// Player name (`m_pName`).
    pub name: NetStr<'a>,
    /// Clan (`m_pClan`).
    pub clan: NetStr<'a>,
    /// Country (ISO 3166-1 numeric, −1 none; `m_Country`).
    pub country: i32,
    /// Skin name (`m_pSkin`).
    pub skin: NetStr<'a>,
    /// Whether the custom colours are used (`m_UseCustomColor`).
    pub use_custom_color: bool,
    /// Body colour, HSL packed (`m_ColorBody`).
    pub color_body: i32,
    /// Feet colour, HSL packed (`m_ColorFeet`).
    pub color_feet: i32,
}

impl<'a> ClientInfo06<'a> {
    pub(crate) fn decode(f: &mut Fields<'a>) -> Result<Self> {
        Ok(Self {
            name: f.string()?,
            clan: f.string()?,
            country: f.int()?,
            skin: f.string()?,
            use_custom_color: f.bool()?,
            color_body: f.int()?,
            color_feet: f.int()?,
        })
    }

    /// Writes the fields into a message's map, under datasrc's names.
    #[cfg(feature = "serde")]
    pub(crate) fn serialize_fields<M: serde::ser::SerializeStruct>(
        &self,
        m: &mut M,
    ) -> core::result::Result<(), M::Error> {
        m.serialize_field("name", &self.name)?;
        m.serialize_field("clan", &self.clan)?;
        m.serialize_field("country", &self.country)?;
        m.serialize_field("skin", &self.skin)?;
        m.serialize_field("use_custom_color", &self.use_custom_color)?;
        m.serialize_field("color_body", &self.color_body)?;
        m.serialize_field("color_feet", &self.color_feet)
    }
}

/// A 0.7 client's identity (`Sv_ClientInfo`, `Cl_StartInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientInfo07<'a> {
    /// Player name (`m_pName`).
    pub name: NetStr<'a>,
    /// Clan (`m_pClan`).
    pub clan: NetStr<'a>,
    /// Country (ISO 3166-1 numeric, −1 none; `m_Country`).
    pub country: i32,
    /// Skin part names (`m_apSkinPartNames`), read on request.
    pub skin_parts: NetStrs<'a, SKIN_PARTS>,
    /// Whether each part uses its custom colour (`m_aUseCustomColors`).
    pub use_custom_colors: [bool; SKIN_PARTS],
    /// Each part's colour (`m_aSkinPartColors`).
    pub skin_part_colors: [i32; SKIN_PARTS],
}

impl<'a> ClientInfo07<'a> {
    pub(crate) fn decode(f: &mut Fields<'a>) -> Result<Self> {
        Ok(Self {
            name: f.string()?,
            clan: f.string()?,
            country: f.int()?,
            skin_parts: NetStrs::decode(f)?,
            use_custom_colors: f.bools()?,
            skin_part_colors: f.ints()?,
        })
    }

    /// Writes the fields into a message's map, under datasrc's names.
    #[cfg(feature = "serde")]
    pub(crate) fn serialize_fields<M: serde::ser::SerializeStruct>(
        &self,
        m: &mut M,
    ) -> core::result::Result<(), M::Error> {
        m.serialize_field("name", &self.name)?;
        m.serialize_field("clan", &self.clan)?;
        m.serialize_field("country", &self.country)?;
        m.serialize_field("skin_part_names", &self.skin_parts)?;
        m.serialize_field("use_custom_colors", &self.use_custom_colors)?;
        m.serialize_field("skin_part_colors", &self.skin_part_colors)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ClientInfo06<'_> {
    /// Its fields under datasrc's names, as in the messages that carry it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut m = s.serialize_struct("ClientInfo06", 7)?;
        self.serialize_fields(&mut m)?;
        m.end()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ClientInfo07<'_> {
    /// Its fields under datasrc's names, as in the messages that carry it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut m = s.serialize_struct("ClientInfo07", 6)?;
        self.serialize_fields(&mut m)?;
        m.end()
    }
}
