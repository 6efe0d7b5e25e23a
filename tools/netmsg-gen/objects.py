"""The snapshot object half of generate.py: writes
src/snapshot/objects/generated.rs (see generate.py for how to run it)."""

import uuid as uuidlib

import spec


def rust_name(name, event):
    n = name.replace("_", "")
    n = n.replace("DDNet", "Ddnet").replace("DDRace", "Ddrace")
    return n + ("Event" if event else "")


def snake(name):
    from generate import snake as s
    return s(name)


KEYWORDS = {"type": "kind", "self": "is_self"}


class ObjField:
    def __init__(self, var, d, proto=None, obj=None):
        self.count = None
        self.text = 0
        self.ser_count = 0
        name = (var.name if not isinstance(var, d.NetArray) else var.base_name).split("[")[0]
        if type(var).__name__ == "NetTwIntString":
            self.text = int(var.size)
        elif (proto, obj, name) in spec.TEXT_FIELDS:
            self.text = spec.TEXT_FIELDS[(proto, obj, name)]
        if isinstance(var, d.NetArray):
            self.count = int(var.size)
            inner = var.var
            if isinstance(inner, d.NetArray):
                self.count *= int(inner.size)
                inner = inner.var
            var = inner
        self.datasrc = var.name
        self.key = snake(var.name)
        self.ident = KEYWORDS.get(self.key, self.key)
        self.default = getattr(var, "default", None)
        if self.default is not None:
            try:
                self.default = int({"False": "0", "True": "1"}.get(self.default, self.default))
            except ValueError:
                # Resolved only if a generated layout needs it.
                self.default = f"SYMBOLIC {self.default}"
        self.ints = self.count or 1
        if self.text and self.count and self.count > self.text:
            self.ser_count = self.count // self.text
        elif not self.text and self.count:
            self.ser_count = self.count

    def rust_type(self):
        return f"[I32; {self.count}]" if self.count else "I32"


class Obj:
    def __init__(self, o, d, by_name, proto):
        self.name = o.name
        self.event = type(o).__name__.startswith("NetEvent")
        self.ex = getattr(o, "ex", None)
        self.uuid = uuidlib.uuid3(uuidlib.UUID("e05ddaaa-c4e6-4cfb-b642-5d48e80c0029"), self.ex) if self.ex else None
        base = by_name[o.base].fields if o.base else []
        self.fields = base + [ObjField(v, d, proto, o.name) for v in o.variables]
        self.hand = spec.HAND_OBJECTS[proto].get(o.name)
        self.variant = self.hand[0] if self.hand else rust_name(o.name, self.event)
        self.type_id = None
        n_plain = 0
        for f in self.fields:
            if f.default is not None:
                break
            n_plain += 1
        if any(f.default is None for f in self.fields[n_plain:]):
            raise SystemExit(f"{o.name}: a field without default after one with")
        self.plain = self.fields[:n_plain]
        self.defaulted = self.fields[n_plain:]

    def struct(self):
        return self.variant + ("Base" if self.defaulted else "")


def collect(net, d, proto):
    objs, by_name, n = [], {}, 0
    for o in net.Objects:
        obj = Obj(o, d, by_name, proto)
        by_name[o.name] = obj
        if not obj.ex:
            n += 1
            obj.type_id = n
        objs.append(obj)
    return objs


def where(o):
    return f"`{o.ex}`" if o.ex else f"type {o.type_id}"


def emit_module(out, proto, objs, doc):
    w = out.append
    has_uuid = proto == "06"
    w(f"/// {doc}")
    w(f"pub mod v{proto} {{")
    w("    #![allow(clippy::doc_markdown, reason = \"datasrc's names in the docs\")]")
    w("    use zerocopy::little_endian::I32;")
    w("    use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};")
    w("")
    common = {"Projectile", "Laser", "Flag", "CharacterCore"}
    hand = sorted({v for (v, _) in spec.HAND_OBJECTS[proto].values()})
    extra = ["DdnetCharacterBase", "GameInfoExBase"] if proto == "06" else []
    w(f"    use super::super::common::{{{', '.join(sorted(common & set(hand)) + ['view'])}}};")
    w(f"    use super::super::v{proto}::{{{', '.join(sorted((set(hand) - common) | set(extra)))}}};")
    if has_uuid:
        w("    use uuid::Uuid;")
    w("    use crate::snapshot::SnapshotView;")
    w("    use crate::snapshot::Item;")
    w("")
    for o in objs:
        if o.hand:
            continue
        kind = "event" if o.event else "object"
        w(f"    /// `{o.name}` ({kind}, {where(o)}).")
        w("    #[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]")
        w("    #[repr(C)]")
        w(f"    pub struct {o.struct()} {{")
        for f in o.plain:
            w(f"        /// `{f.datasrc}`.")
            w(f"        pub {f.ident}: {f.rust_type()},")
        w("    }")
        w("")
        if o.defaulted:
            w(f"    /// `{o.name}`: the fields every sender has, and those newer senders")
            w("    /// append (read through the methods, datasrc's default when absent).")
            w("    #[derive(Clone, Copy, Debug, PartialEq, Eq)]")
            w(f"    pub struct {o.variant}<'a> {{")
            w("        /// The fields every sender has.")
            w(f"        pub base: &'a {o.struct()},")
            w("        /// The appended fields, as many as the item holds.")
            w("        pub extra: &'a [I32],")
            w("    }")
            w("")
            w(f"    impl {o.variant}<'_> {{")
            at = 0
            for f in o.defaulted:
                if str(f.default).startswith("SYMBOLIC"):
                    raise SystemExit(f"{f.datasrc}: {f.default}: give its value in spec.py")
                w(f"        /// `{f.datasrc}`, {f.default} when the item ends before it.")
                w("        #[must_use]")
                if f.count:
                    w(f"        pub fn {f.ident}(&self) -> [i32; {f.count}] {{")
                    w(f"            let rest = self.extra.get({at}..).unwrap_or_default();")
                    w(f"            core::array::from_fn(|i| rest.get(i).map_or({f.default}, |v| v.get()))")
                else:
                    w(f"        pub fn {f.ident}(&self) -> i32 {{")
                    get = "first()" if at == 0 else f"get({at})"
                    w(f"            self.extra.{get}.map_or({f.default}, |v| v.get())")
                w("        }")
                at += f.ints
            w("    }")
            w("")
    if has_uuid:
        w("    /// `NETOBJTYPE_EX` (type 0): names an extended type. Its item id is the")
        w("    /// type id the snapshot uses for the type; its ints hold the UUID")
        w("    /// (DDNet's `CSnapshotBuilder::AddExtendedItemType`).")
        w("    #[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]")
        w("    #[repr(C)]")
        w("    pub struct ExType {")
        w("        /// The UUID's 16 bytes as 4 big-endian ints.")
        w("        pub uuid: [I32; 4],")
        w("    }")
        w("")
        w("    impl ExType {")
        w("        /// The UUID.")
        w("        #[must_use]")
        w("        pub fn uuid(&self) -> Uuid {")
        w("            crate::bytes::uuid_from_ints(&self.uuid).unwrap_or_default()")
        w("        }")
        w("    }")
        w("")
    # the enum
    w(f"    /// A {'0.6/DDNet' if proto == '06' else '0.7'} snapshot item, typed: every object and event")
    w("    /// of DDNet's datasrc (generated; the common layouts are written by hand).")
    w("    #[derive(Clone, Copy, Debug, PartialEq, Eq)]")
    w("    #[non_exhaustive]")
    w(f"    pub enum Object{proto}<'a> {{")
    for o in objs:
        kind = "event" if o.event else "object"
        w(f"        /// `{o.name}` ({kind}, {where(o)}).")
        if o.hand and o.hand[1]:
            w(f"        {o.variant}({o.variant}<'a>),")
        elif o.defaulted and not o.hand:
            w(f"        {o.variant}({o.variant}<'a>),")
        else:
            w(f"        {o.variant}(&'a {o.variant}),")
    if has_uuid:
        w("        /// `NETOBJTYPE_EX` (type 0): the UUID of an extended type.")
        w("        ExType(&'a ExType),")
    else:
        w("        /// DDNet's extended objects and their `NETOBJTYPE_EX` declarations")
        w("        /// (type 0), which a DDNet server sends 0.7 clients too, typed as in")
        w("        /// 0.6/DDNet snapshots.")
        w("        Ddnet(crate::snapshot::objects::generated::v06::Object06<'a>),")
    w("        /// Anything else (an unknown type, or an item too short for its type),")
    w("        /// passed through.")
    w("        Unknown {")
    w("            /// The item type.")
    w("            type_id: u16,")
    if has_uuid:
        w("            /// The UUID of an extended type, when the snapshot names it.")
        w("            uuid: Option<Uuid>,")
    w("            /// The item's ints.")
    w("            data: &'a [I32],")
    w("        },")
    w("    }")
    w("")
    w(f"    impl<'a> Object{proto}<'a> {{")
    if has_uuid:
        w("        /// Types `item` of `snapshot` (which names the extended types).")
        w("        #[must_use]")
        w("        pub fn parse(snapshot: &SnapshotView<'a>, item: &Item<'a>) -> Self {")
        w("            let data = item.data();")
        w("            let type_id = item.type_id();")
        w("            let uuid = snapshot.type_uuid(type_id);")
        w("            let typed = match (type_id, uuid.map(|u| u.as_u128())) {")
    else:
        w("        /// Types `item` of `snapshot` (which names DDNet's extended types).")
        w("        #[must_use]")
        w("        pub fn parse(snapshot: &SnapshotView<'a>, item: &Item<'a>) -> Self {")
        w("            let data = item.data();")
        w("            let type_id = item.type_id();")
        w("            if type_id == 0 || snapshot.type_uuid(type_id).is_some() {")
        w("                return Self::Ddnet(crate::snapshot::objects::generated::v06::Object06::parse(snapshot, item));")
        w("            }")
        w("            let typed = match type_id {")
    for o in objs:
        if has_uuid:
            pat = f"(_, Some(0x{o.uuid.hex}))" if o.ex else f"({o.type_id}, _)"
        else:
            pat = f"{o.type_id}"
        if o.hand and o.hand[1]:
            e = o.hand[1]
        elif o.defaulted and not o.hand:
            n = sum(f.ints for f in o.plain)
            e = f"view::<{o.struct()}>(data).map(|base| Self::{o.variant}({o.variant} {{ base, extra: data.get({n}..).unwrap_or_default() }}))"
        else:
            e = f"view(data).map(Self::{o.variant})"
        w(f"                {pat} => {e},")
    if has_uuid:
        w("                (0, _) => view(data).map(Self::ExType),")
    w("                _ => None,")
    w("            };")
    if has_uuid:
        w("            typed.unwrap_or(Self::Unknown { type_id, uuid, data })")
    else:
        w("            typed.unwrap_or(Self::Unknown { type_id, data })")
    w("        }")
    w("")
    w("        /// The object's name as DDNet's datasrc spells it (`Character`,")
    w("        /// `DDNetCharacter`, `Explosion`); `unknown` for what passes through.")
    w("        #[must_use]")
    w("        pub const fn name(&self) -> &'static str {")
    w("            match self {")
    for o in objs:
        w(f'                Self::{o.variant}(_) => "{o.name}",')
    if has_uuid:
        w('                Self::ExType(_) => "NETOBJTYPE_EX",')
    else:
        w("                Self::Ddnet(o) => o.name(),")
    w('                Self::Unknown { .. } => "unknown",')
    w("            }")
    w("        }")
    w("    }")
    w("")
    # Serialize
    w('    #[cfg(feature = "serde")]')
    w("    mod fields {")
    w("        use super::super::super::ser::Field;")
    for o in objs:
        items = ", ".join(f'Field {{ key: "{f.key}", count: {f.ser_count}, text: {f.text} }}' for f in o.fields)
        w(f"        pub(super) const {o.variant.upper()}: &[Field] = &[{items}];")
    w("    }")
    w("")
    w('    #[cfg(feature = "serde")]')
    w(f"    impl serde::Serialize for Object{proto}<'_> {{")
    w("        /// `kind` ([`Self::name`]) and the fields under datasrc's names, by")
    w("        /// position in the item; `null` for a field the item is too short for.")
    w("        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {")
    w("            use super::super::ser::object;")
    w("            match *self {")
    for o in objs:
        f = f"fields::{o.variant.upper()}"
        if (o.hand and o.hand[1]) or (o.defaulted and not o.hand):
            w(f'                Self::{o.variant}(o) => object(s, "{o.name}", {f}, o.base.as_bytes(), o.extra),')
        else:
            w(f'                Self::{o.variant}(o) => object(s, "{o.name}", {f}, o.as_bytes(), &[]),')
    if has_uuid:
        w("                Self::ExType(o) => {")
        w("                    use serde::ser::SerializeStruct;")
        w('                    let mut m = s.serialize_struct("NETOBJTYPE_EX", 2)?;')
        w('                    m.serialize_field("kind", "NETOBJTYPE_EX")?;')
        w('                    m.serialize_field("uuid", &o.uuid().hyphenated().encode_lower(&mut Uuid::encode_buffer()))?;')
        w("                    m.end()")
        w("                }")
        w("                Self::Unknown { type_id, uuid, data } => {")
    else:
        w("                Self::Ddnet(o) => o.serialize(s),")
        w("                Self::Unknown { type_id, data } => {")
    w("                    use serde::ser::SerializeStruct;")
    w(f'                    let mut m = s.serialize_struct("unknown", {4 if has_uuid else 3})?;')
    w('                    m.serialize_field("kind", "unknown")?;')
    w('                    m.serialize_field("type_id", &type_id)?;')
    if has_uuid:
        w('                    let mut buf = Uuid::encode_buffer();')
        w('                    m.serialize_field("uuid", &uuid.map(|u| &*u.hyphenated().encode_lower(&mut buf)))?;')
    w('                    m.serialize_field("data", &Ints(data))?;')
    w("                    m.end()")
    w("                }")
    w("            }")
    w("        }")
    w("    }")
    w("")
    w("    /// An item's ints as a sequence of numbers.")
    w('    #[cfg(feature = "serde")]')
    w("    struct Ints<'a>(&'a [I32]);")
    w("")
    w('    #[cfg(feature = "serde")]')
    w("    impl serde::Serialize for Ints<'_> {")
    w("        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {")
    w("            s.collect_seq(self.0.iter().map(|v| v.get()))")
    w("        }")
    w("    }")
    w("")
    # sizes table for the test of the hand-written layouts
    w("    /// Every object and event: datasrc name, type id (0 for extended ones),")
    w("    /// UUID name, the ints of the fields every sender has (those before")
    w("    /// the first field with a default) and the ints of all fields.")
    w(f"    pub const KINDS: [(&str, u16, &str, usize, usize); {len(objs)}] = [")
    for o in objs:
        w(f'        ("{o.name}", {o.type_id or 0}, "{o.ex or ""}", {sum(f.ints for f in o.plain)}, {sum(f.ints for f in o.fields)}),')
    w("    ];")
    w("}")
    w("")


def emit(out, net06, d06, net07, d07):
    objs06 = collect(net06, d06, "06")
    objs07 = collect(net07, d07, "07")
    emit_module(out, "06", objs06, "0.6/DDNet objects and events (DDNet's `datasrc/network.py`; type ids from 1 in list order, extended ones by UUID).")
    emit_module(out, "07", objs07, "0.7 objects and events (DDNet's `datasrc/seven/network.py`; type ids from 1 in list order).")
    return objs06, objs07
