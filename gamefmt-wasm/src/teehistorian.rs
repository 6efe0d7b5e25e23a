//! DDNet teehistorian recordings: `TeehistorianFile`, its header, records,
//! players and chat.

use gamefmt::netmsg;
use gamefmt::teehistorian::{
    ClientProtocols, MAX_CLIENTS, Message, PlayerNames, Record, TeehistorianIter,
};
use wasm_bindgen::prelude::*;

use crate::js::{self, Obj, decode_error};
use gamefmt::netmsg::{Chat, ChatKind, ChatLine};

/// A DDNet teehistorian recording, held in the module's memory.
#[wasm_bindgen]
pub struct TeehistorianFile {
    bytes: Vec<u8>,
}

/// The names and protocols of the clients, as the records set them.
pub struct Clients {
    names: Box<PlayerNames<{ MAX_CLIENTS }>>,
    protocols: Box<ClientProtocols<{ MAX_CLIENTS }>>,
}

impl Clients {
    /// No client known yet.
    pub fn new() -> Self {
        Self {
            names: Box::new(PlayerNames::new()),
            protocols: Box::new(ClientProtocols::new()),
        }
    }

    /// Takes what a record tells about the clients.
    pub fn apply(&mut self, m: &Message<'_>) {
        self.names.apply(m);
        self.protocols.apply(m);
    }

    fn name(&self, cid: i32) -> Option<String> {
        self.names
            .get(cid)
            .map(|n| String::from_utf8_lossy(n).into_owned())
    }
}

/// One record as `gamefmt dump` prints it: the core's serialized record,
/// with `message` (a MESSAGE record's network message, decoded with its
/// client's protocol) and `player` (the name of the client it is about,
/// once known).
pub fn record(r: &Record<'_>, clients: &Clients) -> Result<JsValue, JsValue> {
    let o = Obj::from_ser(r)?;
    let cid = r.message.client_id();
    if let Message::PlayerMessage { data, .. } = r.message {
        let protocol = cid.map_or(gamefmt::Protocol::V06, |c| clients.protocols.get(c));
        let message = match netmsg::decode(protocol, data) {
            Ok(m) => js::ser(&m)?,
            Err(_) => JsValue::NULL,
        };
        o.set("message", message);
    }
    if let Some(name) = cid.and_then(|c| clients.name(c)) {
        o.set("player", name);
    }
    Ok(o.done())
}

impl TeehistorianFile {
    /// Checks the magic and the header.
    pub fn new(bytes: Vec<u8>) -> Result<Self, JsValue> {
        TeehistorianIter::new(&bytes).map_err(decode_error)?;
        Ok(Self { bytes })
    }

    fn iter(&self) -> Result<TeehistorianIter<'_>, JsValue> {
        TeehistorianIter::new(&self.bytes).map_err(decode_error)
    }
}

#[wasm_bindgen]
impl TeehistorianFile {
    /// `"teehistorian"`.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        "teehistorian".into()
    }

    /// The header: its JSON parsed (the text itself if it does not parse).
    pub fn header(&self) -> Result<JsValue, JsValue> {
        let iter = self.iter()?;
        let text = iter.header().json();
        Ok(js_sys::JSON::parse(text).unwrap_or_else(|_| JsValue::from(text)))
    }

    /// Every record in order, as `gamefmt dump` prints them (`tick`,
    /// `offset`, `kind`, fields; `message`, `player`). A file cut inside a
    /// record ends after the last whole one (see `end()`); damage throws.
    pub fn records(&self) -> Result<JsValue, JsValue> {
        let mut clients = Clients::new();
        let out = js_sys::Array::new();
        for r in self.iter()? {
            let r = r.map_err(decode_error)?;
            clients.apply(&r.message);
            out.push(&record(&r, &clients)?);
        }
        Ok(out.into())
    }

    /// How the stream ended: `{kind, offset, error}`.
    pub fn end(&self) -> Result<JsValue, JsValue> {
        let mut iter = self.iter()?;
        for r in iter.by_ref() {
            if r.is_err() {
                break;
            }
        }
        js::ser(&iter.end())
    }

    /// The players named during the recording: `[{cid, name}]`, each
    /// client id with the last name it had.
    pub fn players(&self) -> Result<JsValue, JsValue> {
        let mut clients = Clients::new();
        let mut seen = std::collections::BTreeMap::new();
        for r in self.iter()? {
            let r = r.map_err(decode_error)?;
            clients.apply(&r.message);
            if let Some((cid, name)) = r
                .message
                .client_id()
                .and_then(|cid| Some((cid, clients.name(cid)?)))
            {
                seen.insert(cid, name);
            }
        }
        Ok(crate::js::array(seen.into_iter().map(|(cid, name)| {
            Obj::new().set("cid", cid).set("name", name).done()
        })))
    }

    /// The chat, as `gamefmt chat --json` prints it (without `file`):
    /// Cl_Say MESSAGE records (old servers recorded them) and chat
    /// commands (`kind: "command"`), named from EX player-name.
    pub fn chat(&self) -> Result<JsValue, JsValue> {
        let mut clients = Clients::new();
        let mut lines = Vec::new();
        for r in self.iter()? {
            let r = r.map_err(decode_error)?;
            clients.apply(&r.message);
            let line = match r.message {
                Message::PlayerMessage { cid, data } => {
                    let Ok(msg) = netmsg::decode(clients.protocols.get(cid), data) else {
                        continue;
                    };
                    match Chat::of_message(&msg, cid) {
                        Some(chat) if chat.kind == ChatKind::Chat => {
                            ChatLine::new(Some(r.tick), &chat, clients.name(cid))
                        }
                        _ => continue,
                    }
                }
                _ => {
                    let Some(command) = r.message.command() else {
                        continue;
                    };
                    match ChatLine::of_command(r.tick, &command, clients.name(command.cid)) {
                        Some(line) if line.kind == ChatKind::Command => line,
                        _ => continue,
                    }
                }
            };
            lines.push(line);
        }
        js::ser(&lines)
    }
}
