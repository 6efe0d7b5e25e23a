"""What DDNet's datasrc does not say, in datasrc's own vocabulary.

DDNet's `datasrc/network.py` and `datasrc/seven/network.py` describe the
game messages; the system (engine) messages are packed by hand in C++, and
a few game messages are declared with an empty field list although they
carry fields. This file describes those from the DDNet source that packs
them (paths and functions named beside each), so that `generate.py` has
one table for every message. Facts, not code: every entry was read from
DDNet at the commit `generate.py` prints into its output.

Field kinds beyond datasrc's own (`NetIntAny`, `NetBool`, `NetString`, …):

- `Bytes(name, n)`: `n` raw bytes (`CPacker::AddRaw`), e.g. a SHA-256.
- `Uuid(name)`: 16 raw bytes holding a UUID.
- `Sized(name, field)`: as many raw bytes as the earlier int `field` says
  (snapshot parts, map data chunks).
- `Rest(name)`: every byte left (0.7 map data).
- `IntList(name)`: packed ints up to the end (tune parameters, inputs).
- `StrList(name)`: strings up to the end (map list entries).
- `Opt(var)`: a trailing field newer senders add; absent on older ones.
"""


class Extra:
    """A field kind datasrc does not have."""

    def __init__(self, name):
        self.name = name


class Bytes(Extra):
    def __init__(self, name, size):
        super().__init__(name)
        self.size = size


class Uuid(Extra):
    pass


class Rest(Extra):
    pass


class Sized(Extra):
    """Raw bytes whose count an earlier int field gives (`GetRaw(Size)`)."""

    def __init__(self, name, size_field):
        super().__init__(name)
        self.size_field = size_field


class IntList(Extra):
    pass


class StrList(Extra):
    pass


class Opt:
    def __init__(self, var):
        self.var = var
        self.name = var.name


def system_messages(d):
    """The engine messages by their `NETMSG_*` constant (`d` is DDNet's
    datatypes module, for its field classes). Shared by 0.6/DDNet
    (`src/engine/shared/protocol.h`) and 0.7 (`protocol7.h`) where they
    agree; `SEVEN` below overrides the 0.7 ones that differ."""
    I, S, B = d.NetIntAny, d.NetString, d.NetBool
    snap_head = [I("m_Tick"), I("m_DeltaTick")]
    return {
        # client.cpp CClient::SendInfo (0.6: version, password).
        "NETMSG_INFO": [S("m_pVersion"), S("m_pPassword")],
        # server.cpp CServer::SendMap.
        "NETMSG_MAP_CHANGE": [S("m_pName"), I("m_MapCrc"), I("m_MapSize")],
        # server.cpp CServer::SendMapData (0.6 form).
        "NETMSG_MAP_DATA": [I("m_Last"), I("m_MapCrc"), I("m_Chunk"), I("m_ChunkSize"), Sized("m_aData", "m_ChunkSize")],
        "NETMSG_CON_READY": [],
        # server.cpp CServer::DoSnapshot.
        "NETMSG_SNAP": snap_head + [I("m_NumParts"), I("m_Part"), I("m_Crc"), I("m_PartSize"), Sized("m_aData", "m_PartSize")],
        "NETMSG_SNAPEMPTY": snap_head,
        "NETMSG_SNAPSINGLE": snap_head + [I("m_Crc"), I("m_PartSize"), Sized("m_aData", "m_PartSize")],
        # Declared, never sent by DDNet or Teeworlds.
        "NETMSG_SNAPSMALL": [Rest("m_aData")],
        # server.cpp CServer::ProcessClientPacket (NETMSG_INPUT).
        "NETMSG_INPUTTIMING": [I("m_IntendedTick"), I("m_TimeLeft")],
        # server.cpp CServer::SendRconLogLine / auth state (two ints since DDNet 0.6.2).
        "NETMSG_RCON_AUTH_STATUS": [Opt(B("m_Authed")), Opt(B("m_ReceiveCommands"))],
        "NETMSG_RCON_LINE": [S("m_pLine")],
        "NETMSG_READY": [],
        "NETMSG_ENTERGAME": [],
        # client.cpp CClient::SendInput: the input's ints follow its size.
        "NETMSG_INPUT": [I("m_AckGameTick"), I("m_PredictionTick"), I("m_Size"), IntList("m_aData")],
        "NETMSG_RCON_CMD": [S("m_pCmd")],
        # client.cpp CClient::RconAuth.
        "NETMSG_RCON_AUTH": [S("m_pName"), S("m_pPassword"), Opt(B("m_SendRconCmds"))],
        "NETMSG_REQUEST_MAP_DATA": [I("m_Chunk")],
        "NETMSG_PING": [],
        "NETMSG_PING_REPLY": [],
        # server.cpp CServer::SendRconCmd / SendRconCmdRem.
        "NETMSG_RCON_CMD_ADD": [S("m_pName"), S("m_pHelp"), S("m_pParams")],
        "NETMSG_RCON_CMD_REM": [S("m_pName")],
        "NETMSG_UNUSED1": [],
        "NETMSG_UNUSED2": [],
        "NETMSG_UNUSED3": [],
        "NETMSG_UNUSED4": [],
        "NETMSG_UNUSED5": [],
    }


def seven_system_messages(d):
    """0.7's engine messages where they differ (Teeworlds 0.7
    `src/engine/server/server.cpp`, `src/engine/client/client.cpp`; DDNet's
    sixup paths in the same functions)."""
    I, S, B = d.NetIntAny, d.NetString, d.NetBool
    base = system_messages(d)
    base.pop("NETMSG_RCON_AUTH_STATUS")
    base.update({
        "NETMSG_INFO": [S("m_pVersion"), S("m_pPassword"), I("m_ClientVersion")],
        "NETMSG_MAP_CHANGE": [S("m_pName"), I("m_MapCrc"), I("m_MapSize"), I("m_ChunksPerRequest"), I("m_ChunkSize"), Bytes("m_aSha256", 32)],
        "NETMSG_MAP_DATA": [Rest("m_aData")],
        # CServer::SendServerInfo (0.7): then one entry per client.
        "NETMSG_SERVERINFO": [S("m_pVersion"), S("m_pName"), S("m_pHostname"), S("m_pMapName"), S("m_pGameType"),
                              I("m_Flags"), I("m_SkillLevel"), I("m_NumPlayers"), I("m_MaxPlayers"), I("m_NumClients"), I("m_MaxClients"), Rest("m_aClients")],
        "NETMSG_RCON_AUTH_ON": [],
        "NETMSG_RCON_AUTH_OFF": [],
        "NETMSG_RCON_AUTH": [S("m_pPassword")],
        "NETMSG_REQUEST_MAP_DATA": [],
        "NETMSG_MAPLIST_ENTRY_ADD": [S("m_pName")],
        "NETMSG_MAPLIST_ENTRY_REM": [S("m_pName")],
    })
    return base


def ex_system_messages(d):
    """DDNet's UUID system messages (`protocol_ex_msgs.h` names them;
    `protocol_ex.cpp`, server.cpp and client.cpp pack them)."""
    I, S, B = d.NetIntAny, d.NetString, d.NetBool
    return {
        "NETMSG_WHATIS": [Uuid("m_Uuid")],
        "NETMSG_ITIS": [Uuid("m_Uuid"), S("m_pName")],
        "NETMSG_IDONTKNOW": [Uuid("m_Uuid")],
        "NETMSG_RCONTYPE": [B("m_UsernameReq")],
        "NETMSG_MAP_DETAILS": [S("m_pName"), Bytes("m_aSha256", 32), I("m_Crc"), I("m_Size"), Opt(S("m_pUrl"))],
        "NETMSG_CAPABILITIES": [I("m_Version"), I("m_Flags")],
        "NETMSG_CLIENTVER": [Uuid("m_ConnectionId"), I("m_DDNetVersion"), S("m_pDDNetVersionStr")],
        "NETMSG_PINGEX": [Uuid("m_Id")],
        "NETMSG_PONGEX": [Uuid("m_Id")],
        "NETMSG_CHECKSUM_REQUEST": [Uuid("m_Uuid"), IntList("m_aRanges")],
        "NETMSG_CHECKSUM_RESPONSE": [Uuid("m_Uuid"), Bytes("m_aSha256", 32)],
        "NETMSG_CHECKSUM_ERROR": [Uuid("m_Uuid"), I("m_Error")],
        "NETMSG_REDIRECT": [I("m_Port")],
        "NETMSG_RCON_CMD_GROUP_START": [I("m_NumCommands")],
        "NETMSG_RCON_CMD_GROUP_END": [],
        "NETMSG_MAP_RELOAD": [],
        "NETMSG_RECONNECT": [],
        "NETMSG_MAPLIST_ADD": [StrList("m_apNames")],
        "NETMSG_MAPLIST_GROUP_START": [I("m_NumEntries")],
        "NETMSG_MAPLIST_GROUP_END": [],
    }


def game_fills(d, seven):
    """Game messages datasrc declares with an empty field list although
    they carry fields (gamecontext.cpp SendTuningParams, SendTeamsState;
    Teeworlds 0.7 gamecontext.cpp SendVoteOptions, SendGameMsg)."""
    I = d.NetIntAny
    fills = {
        "Sv_TuneParams": [IntList("m_aParams")],
    }
    if seven:
        fills["Sv_VoteOptionListAdd"] = [I("m_NumOptions"), StrList("m_apDescriptions")]
        fills["Sv_GameMsg"] = [I("m_GameMsgId"), IntList("m_aParams")]
    else:
        fills["Sv_TeamsStateLegacy"] = [IntList("m_aTeams")]
        fills["Sv_TeamsState"] = [IntList("m_aTeams")]
    return fills


# Rust variant names of the engine messages: the constant without
# `NETMSG_`, in CamelCase, with its words where the constant runs them
# together.
WORDS = {
    "SNAPEMPTY": "SnapEmpty", "SNAPSINGLE": "SnapSingle", "SNAPSMALL": "SnapSmall",
    "INPUTTIMING": "InputTiming", "ENTERGAME": "EnterGame", "SERVERINFO": "ServerInfo",
    "WHATIS": "WhatIs", "ITIS": "ItIs", "IDONTKNOW": "IDontKnow", "RCONTYPE": "RconType",
    "CLIENTVER": "ClientVer", "PINGEX": "PingEx", "PONGEX": "PongEx",
}

# Messages whose client identity fields the crate groups in a hand-written
# struct (src/netmsg/info.rs): protocol, message, first and last datasrc
# field of the group, the struct, and the Rust field (None: the variant is
# a tuple of the struct alone). The 0.6 vote option list's fifteen
# descriptions are one borrowed slice too (`VoteDescriptions`), so that no
# message is large to move (`NetMsg` was 248 bytes with them as fields).
GROUPS = [
    ("06", "Cl_StartInfo", "m_pName", "m_ColorFeet", "ClientInfo06", None),
    ("06", "Cl_ChangeInfo", "m_pName", "m_ColorFeet", "ClientInfo06", None),
    ("06", "Sv_VoteOptionListAdd", "m_pDescription0", "m_pDescription14", "VoteDescriptions", "descriptions"),
    ("07", "Cl_StartInfo", "m_pName", "m_aSkinPartColors", "ClientInfo07", None),
    ("07", "Sv_ClientInfo", "m_pName", "m_aSkinPartColors", "ClientInfo07", "info"),
]

# Groups whose serialized field names come from here, not from a
# hand-written list: by struct, the constant the generated file declares
# (each datasrc field's snake_case name, in order, with the struct's
# `serialize_fields` beside it) and the `info.rs` capacity its length must
# equal (a compile error otherwise).
GROUP_KEYS = {
    "VoteDescriptions": ("VOTE_DESCRIPTION_KEYS", "VOTE_OPTIONS"),
}

# The doc line of a group's field (by struct; the client's identity
# otherwise).
GROUP_DOCS = {
    "VoteDescriptions": "The options' descriptions",
}


# Snapshot objects the crate types by hand (src/snapshot/objects/v06.rs,
# v07.rs, common.rs): datasrc name -> (variant, parse expression or None
# for a plain view of the whole layout). The generated enums take them as
# they are; every other object and event is generated.
HAND_OBJECTS = {
    "06": {
        "Projectile": ("Projectile", None),
        "Laser": ("Laser", None),
        "Pickup": ("Pickup", None),
        "Flag": ("Flag", None),
        "GameInfo": ("GameInfo", None),
        "GameData": ("GameData", None),
        "CharacterCore": ("CharacterCore", None),
        "Character": ("Character", None),
        "PlayerInfo": ("PlayerInfo", None),
        "ClientInfo": ("ClientInfo", None),
        "SpectatorInfo": ("SpectatorInfo", None),
        "DDNetCharacter": ("DdnetCharacter", "view::<DdnetCharacterBase>(data).map(|base| Self::DdnetCharacter(DdnetCharacter { base, extra: data.get(5..).unwrap_or_default() }))"),
        "DDNetPlayer": ("DdnetPlayer", None),
        "GameInfoEx": ("GameInfoEx", "view::<GameInfoExBase>(data).map(|base| Self::GameInfoEx(GameInfoEx { base, extra: data.get(2..).unwrap_or_default() }))"),
    },
    "07": {
        "Projectile": ("Projectile", None),
        "Laser": ("Laser", None),
        "Pickup": ("Pickup", None),
        "Flag": ("Flag", None),
        "GameData": ("GameData", None),
        "GameDataTeam": ("GameDataTeam", None),
        "GameDataFlag": ("GameDataFlag", None),
        "CharacterCore": ("CharacterCore", None),
        "Character": ("Character", None),
        "PlayerInfo": ("PlayerInfo", None),
        "SpectatorInfo": ("SpectatorInfo", None),
        "De_ClientInfo": ("ClientInfo", None),
        "De_GameInfo": ("GameInfo", None),
    },
}


# Fields datasrc declares as ints that hold strings (`StrToInts`), for the
# serialized form: (protocol, object, field) -> ints per string.
TEXT_FIELDS = {
    ("07", "De_ClientInfo", "m_aName"): 4,
    ("07", "De_ClientInfo", "m_aClan"): 3,
    ("07", "De_ClientInfo", "m_aaSkinPartNames"): 6,
}
