#!/usr/bin/env python3
"""Writes src/netmsg/generated.rs from DDNet's protocol description.

    python3 tools/netmsg-gen/generate.py DDNET_CHECKOUT src/snapshot/objects/generated.rs > src/netmsg/generated.rs
    cargo fmt

DDNET_CHECKOUT is a DDNet source tree (an export of a commit is enough:
`git --git-dir=DIR archive REV datasrc src/engine/shared | tar -x -C D`).
The generator reads, as facts:

- `datasrc/network.py`: 0.6/DDNet game messages, ids in list order from 1,
  and DDNet's UUID game messages (`NetMessageEx`);
- `datasrc/seven/network.py`: 0.7 game messages;
- `src/engine/shared/protocol.h`, `protocol7.h`: the engine (system)
  message ids; `protocol_ex_msgs.h`: DDNet's UUID system messages;
- `spec.py` beside this file: the fields of the engine messages (which
  DDNet packs in C++, not in datasrc) and of the few game messages datasrc
  leaves empty.

One table format for every protocol version; the Rust is generated from
it. Nothing here is compiled into the crate.
"""

import os
import re
import subprocess
import sys
import uuid as uuidlib

import spec

TEEWORLDS_NS = uuidlib.UUID("e05ddaaa-c4e6-4cfb-b642-5d48e80c0029")
KEYWORDS = {"type": "kind", "self": "is_self"}


def snake(datasrc_name):
    n = datasrc_name.split("[")[0]
    n = n[2:] if n.startswith("m_") else n
    n = re.sub(r"^[a-z]+(?=[A-Z])", "", n)
    n = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", n)
    return n.lower()


def default_value(text):
    if text is None:
        return None
    return {"False": "0", "True": "1"}.get(text, text)


class Field:
    """One field: kind is int, bool, str, bytes, uuid, rest, ints, strs;
    `count` for fixed arrays; `optional` for trailing fields newer senders
    add; `default` for datasrc's defaulted fields."""

    def __init__(self, var, d):
        self.optional = False
        if isinstance(var, spec.Opt):
            self.optional = True
            var = var.var
        self.count = None
        if isinstance(var, d.NetArray):
            self.count = int(var.size)
            var = var.var
        self.datasrc = var.name
        self.key = snake(var.name)
        self.ident = KEYWORDS.get(self.key, self.key)
        self.default = default_value(getattr(var, "default", None))
        self.range = None
        self.size = None
        cls = type(var).__name__
        if isinstance(var, spec.Bytes):
            self.kind, self.size = "bytes", var.size
        elif isinstance(var, spec.Uuid):
            self.kind = "uuid"
        elif isinstance(var, spec.Sized):
            self.kind, self.size = "sized", snake(var.size_field)
        elif isinstance(var, spec.Rest):
            self.kind = "rest"
        elif isinstance(var, spec.IntList):
            self.kind = "ints"
        elif isinstance(var, spec.StrList):
            self.kind = "strs"
        elif cls == "NetBool":
            self.kind = "bool"
        elif cls.startswith("NetString"):
            self.kind = "str"
        elif hasattr(var, "min") or cls in ("NetIntAny", "NetTick", "NetFlag"):
            self.kind = "int"
            if hasattr(var, "min") and cls not in ("NetTick", "NetTickStrict"):
                self.range = (var.min, var.max)
        else:
            raise SystemExit(f"unknown field class {cls} for {var.name}")

    def rust_type(self):
        t = {
            "int": "i32",
            "bool": "bool",
            "str": "NetStr<'a>",
            "bytes": "&'a [u8]",
            "sized": "&'a [u8]",
            "uuid": "Uuid",
            "rest": "&'a [u8]",
            "ints": "PackedInts<'a>",
            "strs": "Strings<'a>",
        }[self.kind]
        if self.count is not None:
            # Strings in a row are one borrowed slice (`NetStrs`), not an
            # array of slices: a message stays small to move.
            t = f"NetStrs<'a, {self.count}>" if self.kind == "str" else f"[{t}; {self.count}]"
        if self.optional:
            t = f"Option<{t}>"
        return t

    def decode(self):
        k = self.kind
        if self.count is not None:
            if k == "str":
                e = "NetStrs::decode(f)?"
            else:
                fn = {"int": "ints", "bool": "bools"}[k]
                e = f"f.{fn}::<{self.count}>()?"
        elif k in ("int", "bool") and self.default is not None:
            e = f"f.{k}_or({self.default})?"
        elif k == "str" and self.default is not None:
            raise SystemExit(f"{self.datasrc}: a defaulted string (add Fields::string_or to the crate)")
        else:
            e = {
                "int": "f.int()?",
                "bool": "f.bool()?",
                "str": "f.string()?",
                "bytes": f"f.bytes({self.size})?",
                "sized": f"f.sized({self.size})?",
                "uuid": "f.uuid()?",
                "rest": "f.rest()",
                "ints": "f.packed_ints()",
                "strs": "f.strings_rest()",
            }[k]
        if self.optional:
            e = f"if f.is_empty() {{ None }} else {{ Some({e}) }}"
        return e

    def serialize(self):
        v = self.ident
        if self.kind == "uuid":
            v = f"SerUuid({v})" if not self.optional else f"{v}.map(SerUuid)"
        elif self.kind in ("bytes", "rest", "sized"):
            v = f"SerBytes({v})" if not self.optional else f"{v}.map(SerBytes)"
        return f'm.serialize_field("{self.key}", &{v})?;'

    def doc(self):
        parts = [f"`{self.datasrc}`"]
        if self.count is not None:
            parts.append(f"{self.count} values" + (", read on request" if self.kind == "str" else ""))
        if self.range:
            parts.append(f"DDNet checks {self.range[0]}..={self.range[1]}, not enforced here")
        if self.default is not None:
            parts.append(f"{self.default} when absent")
        if self.optional:
            parts.append("`None` when an older sender left it out")
        if self.kind in ("rest", "ints", "strs"):
            parts.append("up to the end of the message (a demo chunk's zero padding included)")
        if self.kind == "bytes":
            parts.append(f"{self.size} raw bytes")
        if self.kind == "sized":
            parts.append(f"`{self.size}` raw bytes")
        return ", ".join(parts) + "."


class Message:
    def __init__(self, name, variant, fields, *, id=None, uuid_name=None, system=False):
        self.name = name
        self.variant = variant
        self.fields = fields
        self.id = id
        self.uuid_name = uuid_name
        self.uuid = str(uuidlib.uuid3(TEEWORLDS_NS, uuid_name)) if uuid_name else None
        self.system = system
        self.group = None  # (struct, ident or None, first index, last index)


def variant_of_game(name):
    return name.replace("_", "")


def variant_of_system(const):
    word = const[len("NETMSG_"):]
    if word in spec.WORDS:
        return spec.WORDS[word]
    return "".join(w.capitalize() for w in word.split("_"))


def parse_netmsg_enum(path, first):
    text = open(path).read()
    start = text.index(first)
    body = text[start:text.index("}", start)]
    ids, n = {}, -1
    for m in re.finditer(r"\b(NETMSG_\w+)\s*(?:=\s*(\d+))?\s*,", re.sub(r"//[^\n]*", "", body)):
        n = int(m.group(2)) if m.group(2) else n + 1
        ids[m.group(1)] = n
    return ids


def parse_ex_msgs(path):
    return re.findall(r'^UUID\((NETMSG_\w+),\s*"([^"]+)"\)', open(path).read(), re.M)


def fields_of(vars, d):
    return [Field(v, d) for v in vars]


def game_messages(net, d, seven, proto):
    fills = spec.game_fills(d, seven)
    out, ex = [], []
    n = 0
    for msg in net.Messages:
        vars = fills.get(msg.name, msg.variables)
        if msg.variables and msg.name in fills:
            raise SystemExit(f"datasrc now declares {msg.name}'s fields: drop its fill in spec.py")
        m_ex = getattr(msg, "ex", None)
        if m_ex:
            ex.append(Message(msg.name, variant_of_game(msg.name), fields_of(vars, d), uuid_name=m_ex))
        else:
            n += 1
            out.append(Message(msg.name, variant_of_game(msg.name), fields_of(vars, d), id=n))
    for (p, name, first, last, struct, ident) in spec.GROUPS:
        if p != proto:
            continue
        m = next(m for m in out if m.name == name)
        names = [f.datasrc for f in m.fields]
        m.group = (struct, ident, names.index(first), names.index(last))
    return out, ex


def system_messages(ids, table, d):
    out = []
    for const, i in ids.items():
        if const in ("NETMSG_EX", "NETMSG_NULL"):
            continue
        if const not in table:
            raise SystemExit(f"{const} has no fields in spec.py")
        out.append(Message(const, variant_of_system(const), fields_of(table[const], d), id=i, system=True))
    return out


def field_decls(m, indent="        "):
    lines = []
    for i, f in enumerate(m.fields):
        if m.group and m.group[0 + 2] <= i <= m.group[3]:
            if i == m.group[2]:
                doc = spec.GROUP_DOCS.get(m.group[0], "The client's identity")
                lines.append(f"{indent}/// {doc} (`{m.fields[m.group[2]].datasrc}` to `{m.fields[m.group[3]].datasrc}`).")
                lines.append(f"{indent}{m.group[1]}: {m.group[0]}<'a>,")
            continue
        lines.append(f"{indent}/// {f.doc()}")
        lines.append(f"{indent}{f.ident}: {f.rust_type()},")
    return lines


def pattern(m):
    if not m.fields:
        return f"Self::{m.variant}"
    if m.group and m.group[1] is None:
        return f"Self::{m.variant}(info)"
    idents = []
    for i, f in enumerate(m.fields):
        if m.group and m.group[2] <= i <= m.group[3]:
            if i == m.group[2]:
                idents.append(m.group[1])
            continue
        idents.append(f.ident)
    return f"Self::{m.variant} {{ {', '.join(idents)} }}"


def decode_expr(m):
    if not m.fields:
        return f"Self::{m.variant}"
    if m.group and m.group[1] is None:
        return f"Self::{m.variant}({m.group[0]}::decode(f)?)"
    lets, idents = [], []
    for i, f in enumerate(m.fields):
        if m.group and m.group[2] <= i <= m.group[3]:
            if i == m.group[2]:
                lets.append(f"let {m.group[1]} = {m.group[0]}::decode(f)?;")
                idents.append(m.group[1])
            continue
        lets.append(f"let {f.ident} = {f.decode()};")
        idents.append(f.ident)
    if not any(f.kind == "sized" for f in m.fields):
        parts = [l[4:-1].replace(" = ", ": ", 1) for l in lets]
        return f"Self::{m.variant} {{ {', '.join(parts)} }}"
    return "{ " + " ".join(lets) + f" Self::{m.variant} {{ {', '.join(idents)} }} }}"


def serialize_arm(m):
    n_fields = len(m.fields)
    body = []
    if m.group:
        ident = m.group[1] or "info"
        for i, f in enumerate(m.fields):
            if m.group[2] <= i <= m.group[3]:
                if i == m.group[2]:
                    body.append(f"{ident}.serialize_fields(&mut m)?;")
                continue
            body.append(f.serialize())
    else:
        body = [f.serialize() for f in m.fields]
    lines = [f"{pattern(m)} => {{",
             f'let mut m = s.serialize_struct("{m.name}", {n_fields + 1})?;',
             f'm.serialize_field("kind", "{m.name}")?;']
    lines += body
    lines += ["m.end()", "}"]
    return "\n".join(lines)


def where(m):
    if m.uuid_name:
        return f"`{m.uuid_name}`"
    return f"{'system' if m.system else 'game'} message {m.id}"


def emit_enum(out, ty, doc, msgs, *, other=None, by="id"):
    w = out.append
    w(f"/// {doc}")
    w("#[derive(Clone, Copy, Debug, PartialEq, Eq)]")
    w("#[non_exhaustive]")
    w(f"pub enum {ty}<'a> {{")
    for m in msgs:
        w(f"    /// `{m.name}` ({where(m)}).")
        if not m.fields:
            w(f"    {m.variant},")
        elif m.group and m.group[1] is None:
            w(f"    {m.variant}({m.group[0]}<'a>),")
        else:
            w(f"    {m.variant} {{")
            out.extend(field_decls(m))
            w("    },")
    if other:
        w("    /// Any other id, passed through.")
        w("    Other {")
        w("        /// Message id.")
        w("        id: i32,")
        w("        /// Its fields, undecoded.")
        w("        payload: &'a [u8],")
        w("    },")
    w("}")
    w("")
    w(f"impl<'a> {ty}<'a> {{")
    # decode
    if by == "id":
        w(f"    /// Decodes message `id` from its fields in `payload` (`base`: their offset in")
        w(f"    /// the message, for errors), as the message it is (an unknown id passed")
        w(f"    /// through); bytes after the fields are ignored. Each arm builds the")
        w(f"    /// returned message itself (no copy from this enum into [`NetMsg`]).")
        w("    #[inline]")
        w(f"    pub(crate) fn decode(id: i32, payload: &'a [u8], base: usize) -> Result<NetMsg<'a>> {{")
        w("        let f = &mut Fields::new(payload, base);")
        w("        let _ = &f;")
        wrap = lambda e: f"NetMsg::{ty}({e})"
        w("        Ok(match id {")
        for m in msgs:
            w(f"            {m.id} => {wrap(decode_expr(m))},")
        w("            _ => " + (f"NetMsg::{ty}(Self::Other {{ id, payload }})" if other else "NetMsg::System { id, payload }") + ",")
        w("        })")
        w("    }")
    else:
        w("    /// Decodes the fields of the message named `uuid` (`system`: its system")
        w("    /// flag) from `payload` (`base`: its offset in the message, for errors);")
        w("    /// `None` for a UUID DDNet does not define with that flag.")
        w("    pub(crate) fn decode(system: bool, uuid: &Uuid, payload: &'a [u8], base: usize) -> Result<Option<Self>> {")
        w("        let f = &mut Fields::new(payload, base);")
        w("        let _ = &f;")
        w("        Ok(Some(match (system, uuid.as_u128()) {")
        for m in msgs:
            w(f"            ({'true' if m.system else 'false'}, 0x{uuidlib.UUID(m.uuid).hex}) => {decode_expr(m)},")
        w("            _ => return Ok(None),")
        w("        }))")
        w("    }")
    w("")
    w("    /// The message's name as DDNet's source spells it (`Sv_Chat`,")
    w("    /// `NETMSG_SNAP`); `unknown_game` for [`Self::Other`]." if other else
      "    /// The message's name as DDNet's source spells it (`Sv_Chat`, `NETMSG_SNAP`).")
    w("    #[must_use]")
    w("    pub const fn name(&self) -> &'static str {")
    w("        match self {")
    for m in msgs:
        pat = f"Self::{m.variant}" + ("" if not m.fields else (" (..)" if m.group and m.group[1] is None else " { .. }"))
        w(f'            {pat.replace(" (..)", "(..)")} => "{m.name}",')
    if other:
        w('            Self::Other { .. } => "unknown_game",')
    w("        }")
    w("    }")
    if by == "id":
        w("")
        w("    /// The message's id.")
        w("    #[must_use]")
        w("    pub const fn id(&self) -> i32 {")
        w("        match self {")
        for m in msgs:
            pat = f"Self::{m.variant}" + ("" if not m.fields else ("(..)" if m.group and m.group[1] is None else " { .. }"))
            w(f"            {pat} => {m.id},")
        if other:
            w("            Self::Other { id, .. } => *id,")
        w("        }")
        w("    }")
    else:
        w("")
        w("    /// The message's UUID.")
        w("    #[must_use]")
        w("    pub const fn uuid(&self) -> Uuid {")
        w("        match self {")
        for m in msgs:
            pat = f"Self::{m.variant}" + ("" if not m.fields else " { .. }")
            w(f'            {pat} => uuid!("{m.uuid}"),')
        w("        }")
        w("    }")
        w("")
        w("    /// Whether it is a system (engine) message.")
        w("    #[must_use]")
        w("    pub const fn is_system(&self) -> bool {")
        sys_pats = [f"Self::{m.variant}" + ("" if not m.fields else " { .. }") for m in msgs if m.system]
        w(f"        matches!(self, {' | '.join(sys_pats)})")
        w("    }")
    w("}")
    w("")
    w('#[cfg(feature = "serde")]')
    w(f"impl serde::Serialize for {ty}<'_> {{")
    w("    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {")
    w("        use serde::ser::SerializeStruct;")
    w("        match *self {")
    for m in msgs:
        w(serialize_arm(m) + ",")
    if other:
        w("Self::Other { id, payload } => {")
        w('let mut m = s.serialize_struct("unknown_game", 3)?;')
        w('m.serialize_field("kind", "unknown_game")?;')
        w('m.serialize_field("id", &id)?;')
        w('m.serialize_field("payload", &SerBytes(payload))?;')
        w("m.end()")
        w("}")
    w("        }")
    w("    }")
    w("}")
    w("")


def kinds_table(out, rows):
    w = out.append
    w("/// Every message kind this module types: one row per message, in the")
    w("/// order of DDNet's definitions.")
    w(f"pub const KINDS: [Kind; {len(rows)}] = [")
    for (proto, system, ident, name, fields) in rows:
        fl = ", ".join(f'"{f}"' for f in fields)
        w(f'    Kind {{ protocol: {proto}, system: {"true" if system else "false"}, id: {ident}, name: "{name}", fields: &[{fl}] }},')
    w("];")


def group_keys(out, by_proto):
    """The serialized names of the fields of the groups in spec.GROUP_KEYS."""
    w = out.append
    done = {}
    for (p, name, first, last, struct, ident) in spec.GROUPS:
        if struct not in spec.GROUP_KEYS:
            continue
        const, cap = spec.GROUP_KEYS[struct]
        m = next(m for m in by_proto[p] if m.name == name)
        keys = [f.key for f in m.fields[m.group[2]:m.group[3] + 1]]
        if const in done:
            if done[const] != keys:
                raise SystemExit(f"{struct}: {name}'s fields differ from another message's")
            continue
        done[const] = keys
        w("")
        w(f"/// The serialized names of `{struct}` (`{name}`'s `{first}` to `{last}`).")
        w('#[cfg(feature = "serde")]')
        w(f"pub(crate) const {const}: [&str; super::info::{cap}] = [{', '.join(f'{k!r}'.replace(chr(39), chr(34)) for k in keys)}];")
        w("")
        w('#[cfg(feature = "serde")]')
        w(f"impl {struct}<'_> {{")
        w("    /// Writes each element into the message's map under its name in")
        w(f"    /// `{const}`.")
        w("    pub(crate) fn serialize_fields<M: serde::ser::SerializeStruct>(")
        w("        &self,")
        w("        m: &mut M,")
        w("    ) -> core::result::Result<(), M::Error> {")
        w(f"        for (key, value) in {const}.iter().zip(self.iter()) {{")
        w("            m.serialize_field(key, &value)?;")
        w("        }")
        w("        Ok(())")
        w("    }")
        w("}")


def main():
    ddnet = sys.argv[1]
    sys.path.insert(0, os.path.join(ddnet, "datasrc"))
    sys.path.insert(0, ddnet)
    import datatypes as d06
    import network as net06
    import importlib
    net07 = importlib.import_module("datasrc.seven.network")
    d07 = importlib.import_module("datasrc.seven.datatypes")
    d06.NetArray  # noqa
    shared = os.path.join(ddnet, "src", "engine", "shared")
    ids06 = parse_netmsg_enum(os.path.join(shared, "protocol.h"), "NETMSG_EX")
    ids07 = parse_netmsg_enum(os.path.join(shared, "protocol7.h"), "NETMSG_NULL")
    ex_names = parse_ex_msgs(os.path.join(shared, "protocol_ex_msgs.h"))

    game06, ex_game = game_messages(net06, d06, False, "06")
    game07, ex07 = game_messages(net07, d07, True, "07")
    assert not ex07
    sys06 = system_messages(ids06, spec.system_messages(d06), d06)
    sys07 = system_messages(ids07, spec.seven_system_messages(d07), d07)
    ex_sys_table = spec.ex_system_messages(d06)
    ex_sys = []
    for const, name in ex_names:
        if const not in ex_sys_table:
            raise SystemExit(f"{const} has no fields in spec.py")
        ex_sys.append(Message(const, variant_of_system(const), fields_of(ex_sys_table[const], d06), uuid_name=name, system=True))
    extended = ex_game + ex_sys

    rev = os.environ.get("DDNET_REV", "unknown")
    out = []
    w = out.append
    w("// @generated by tools/netmsg-gen/generate.py from DDNet's protocol")
    w(f"// description (datasrc/network.py, datasrc/seven/network.py,")
    w(f"// src/engine/shared/protocol.h, protocol7.h, protocol_ex_msgs.h) at DDNet")
    w(f"// commit {rev}, and tools/netmsg-gen/spec.py. Do not edit: regenerate with")
    w("//     DDNET_REV=$(git -C DDNET rev-parse HEAD) python3 tools/netmsg-gen/generate.py DDNET \\")
    w("//         src/snapshot/objects/generated.rs > src/netmsg/generated.rs && cargo fmt")
    w("")
    w("//! The message tables, generated from DDNet's protocol description.")
    w("")
    w("use uuid::{Uuid, uuid};")
    w("")
    w("use crate::error::Result;")
    w("use crate::protocol::Protocol;")
    w("")
    w("use super::fields::Fields;")
    w("#[cfg(feature = \"serde\")]")
    w("use super::fields::{SerBytes, SerUuid};")
    w("use super::info::{ClientInfo06, ClientInfo07, VoteDescriptions};")
    w("use super::lists::{NetStrs, PackedInts, Strings};")
    w("use super::string::NetStr;")
    w("use super::{Kind, NetMsg};")
    w("")
    emit_enum(out, "Game06", "A 0.6/DDNet game message (DDNet's `datasrc/network.py`; ids from 1 in list order).", game06, other=True)
    emit_enum(out, "Game07", "A Teeworlds 0.7 game message (DDNet's `datasrc/seven/network.py`; ids from 1 in list order).", game07, other=True)
    emit_enum(out, "System06", "A 0.6/DDNet system (engine) message (ids: DDNet's `protocol.h`).", sys06)
    emit_enum(out, "System07", "A Teeworlds 0.7 system (engine) message (ids: DDNet's `protocol7.h`).", sys07)
    emit_enum(out, "Extended", "A DDNet extended message (id 0, then the UUID of its name): game messages from `datasrc/network.py` (`NetMessageEx`), system messages from `protocol_ex_msgs.h`.", extended, by="uuid")
    rows = []
    for m in game06:
        rows.append(("Some(Protocol::V06)", False, m.id, m.name, [f.key for f in m.fields]))
    for m in sys06:
        rows.append(("Some(Protocol::V06)", True, m.id, m.name, [f.key for f in m.fields]))
    for m in game07:
        rows.append(("Some(Protocol::V07)", False, m.id, m.name, [f.key for f in m.fields]))
    for m in sys07:
        rows.append(("Some(Protocol::V07)", True, m.id, m.name, [f.key for f in m.fields]))
    for m in extended:
        rows.append(("None", m.system, 0, m.name, [f.key for f in m.fields]))
    kinds_table(out, rows)
    group_keys(out, {"06": game06, "07": game07})
    if len(sys.argv) > 2:
        import objects
        objs = []
        objs.append("// @generated by tools/netmsg-gen/generate.py from DDNet's protocol")
        objs.append(f"// description (datasrc/network.py, datasrc/seven/network.py) at DDNet commit {rev}.")
        objs.append("// Do not edit: regenerate (see src/netmsg/generated.rs).")
        objs.append("")
        objs.append("//! The snapshot object tables, generated from DDNet's datasrc.")
        objs.append("")
        objects.emit(objs, net06, d06, net07, d07)
        with open(sys.argv[2], "w") as f:
            f.write("\n".join(objs) + "\n")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
