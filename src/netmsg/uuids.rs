//! The UUIDs of DDNet's extended net messages (message id 0, then the
//! UUID): game messages from `datasrc/network.py` (`NetMessageEx`) and
//! system messages from `src/engine/shared/protocol_ex_msgs.h`, each the
//! version 3 UUID of its name in the Teeworlds namespace. [`name`] names a
//! [`super::NetMsg::Ex`].
//!
//! ```
//! use gamefmt::netmsg::uuids;
//!
//! assert_eq!(uuids::name(&uuids::SV_DDRACE_TIME), Some("Sv_DDRaceTime"));
//! ```

use uuid::{Uuid, uuid};

/// `my-own-message@heinrich5991.de`: game message `Sv_MyOwnMessage`.
pub const SV_MY_OWN_MESSAGE: Uuid = uuid!("1231e484-f607-3722-a89a-bd85db46f5d2");
/// `show-distance@netmsg.ddnet.tw`: game message `Cl_ShowDistance`.
pub const CL_SHOW_DISTANCE: Uuid = uuid!("53bb28af-4252-3ac9-8fd3-6ccbc2a603e3");
/// `showothers@netmsg.ddnet.tw`: game message `Cl_ShowOthers`.
pub const CL_SHOW_OTHERS: Uuid = uuid!("7f264cdd-71a2-3962-bbce-0f94bbd81913");
/// `camera-info@netmsg.ddnet.org`: game message `Cl_CameraInfo`.
pub const CL_CAMERA_INFO: Uuid = uuid!("8c470228-ee11-3808-93b9-c5c87d08b51c");
/// `teamsstate@netmsg.ddnet.tw`: game message `Sv_TeamsState`.
pub const SV_TEAMS_STATE: Uuid = uuid!("a091961a-95e8-3744-bb60-5eac9bd563c6");
/// `ddrace-time@netmsg.ddnet.tw`: game message `Sv_DDRaceTime`.
pub const SV_DDRACE_TIME: Uuid = uuid!("5dde8b3c-6f6f-37ac-a72a-bb341fe76de5");
/// `record@netmsg.ddnet.tw`: game message `Sv_Record`.
pub const SV_RECORD: Uuid = uuid!("804f149f-9b53-3b0a-897f-59663a1c4eb9");
/// `killmsgteam@netmsg.ddnet.tw`: game message `Sv_KillMsgTeam`.
pub const SV_KILL_MSG_TEAM: Uuid = uuid!("ee610b6f-909f-311e-93f7-11a95f55a086");
/// `yourvote@netmsg.ddnet.org`: game message `Sv_YourVote`.
pub const SV_YOUR_VOTE: Uuid = uuid!("bfd7f0fc-16d5-3e10-8015-a78380f13870");
/// `racefinish@netmsg.ddnet.org`: game message `Sv_RaceFinish`.
pub const SV_RACE_FINISH: Uuid = uuid!("c915ba68-0a49-3324-915a-7a6220cecf33");
/// `commandinfo@netmsg.ddnet.org`: game message `Sv_CommandInfo`.
pub const SV_COMMAND_INFO: Uuid = uuid!("90778f65-1b8f-322a-9713-cf741aa44a05");
/// `commandinfo-remove@netmsg.ddnet.org`: game message `Sv_CommandInfoRemove`.
pub const SV_COMMAND_INFO_REMOVE: Uuid = uuid!("eb2e77ce-e9a2-35aa-94be-235f523ac1aa");
/// `sv-vote-option-group-start@netmsg.ddnet.org`: game message `Sv_VoteOptionGroupStart`.
pub const SV_VOTE_OPTION_GROUP_START: Uuid = uuid!("969d127c-b768-390d-8879-6104993769fa");
/// `sv-vote-option-group-end@netmsg.ddnet.org`: game message `Sv_VoteOptionGroupEnd`.
pub const SV_VOTE_OPTION_GROUP_END: Uuid = uuid!("4f096765-39b1-3766-82dc-61b20ccf589a");
/// `sv-commandinfo-group-start@netmsg.ddnet.org`: game message `Sv_CommandInfoGroupStart`.
pub const SV_COMMAND_INFO_GROUP_START: Uuid = uuid!("9e220138-d393-3cb0-90f1-e587c00ab1d0");
/// `sv-commandinfo-group-end@netmsg.ddnet.org`: game message `Sv_CommandInfoGroupEnd`.
pub const SV_COMMAND_INFO_GROUP_END: Uuid = uuid!("054125d8-0062-3891-840b-47462285a01f");
/// `change-info-cooldown@netmsg.ddnet.org`: game message `Sv_ChangeInfoCooldown`.
pub const SV_CHANGE_INFO_COOLDOWN: Uuid = uuid!("746cb54c-6b2b-39a7-8cd8-7c7a1c6c3009");
/// `map-sound-global@netmsg.ddnet.org`: game message `Sv_MapSoundGlobal`.
pub const SV_MAP_SOUND_GLOBAL: Uuid = uuid!("669c9741-695a-369b-856c-a254f6b7f0cb");
/// `preinput@netmsg.ddnet.org`: game message `Sv_PreInput`.
pub const SV_PRE_INPUT: Uuid = uuid!("b5d3a686-ad59-382c-b3de-d9fedc3320ae");
/// `save-code@netmsg.ddnet.org`: game message `Sv_SaveCode`.
pub const SV_SAVE_CODE: Uuid = uuid!("dc9edffb-266a-3bd6-b101-a949fa44e16b");
/// `server-alert@netmsg.ddnet.org`: game message `Sv_ServerAlert`.
pub const SV_SERVER_ALERT: Uuid = uuid!("035206dc-9f8b-315c-9abf-5ab9153a857c");
/// `moderator-alert@netmsg.ddnet.org`: game message `Sv_ModeratorAlert`.
pub const SV_MODERATOR_ALERT: Uuid = uuid!("d7c55683-7983-32f0-8d9a-877434ea19d5");
/// `enable-spectator-count@netmsg.ddnet.org`: game message `Cl_EnableSpectatorCount`.
pub const CL_ENABLE_SPECTATOR_COUNT: Uuid = uuid!("e19b66e8-0646-351b-aa03-d4aba7b9545f");
/// `map-info@netmsg.ddnet.org`: game message `Sv_MapInfo`.
pub const SV_MAP_INFO: Uuid = uuid!("da46b81d-a060-30c3-9abb-dd2945e8edb4");
/// `what-is@ddnet.tw`: system message `NETMSG_WHATIS`.
pub const SYS_WHATIS: Uuid = uuid!("245e5097-9fe0-39d6-bf7d-9a29e1691e4c");
/// `it-is@ddnet.tw`: system message `NETMSG_ITIS`.
pub const SYS_ITIS: Uuid = uuid!("6954847e-2e87-3603-b562-36da29ed1aca");
/// `i-dont-know@ddnet.tw`: system message `NETMSG_IDONTKNOW`.
pub const SYS_IDONTKNOW: Uuid = uuid!("416911b5-7973-33bf-8d52-7bf01e519cf0");
/// `rcon-type@ddnet.tw`: system message `NETMSG_RCONTYPE`.
pub const SYS_RCONTYPE: Uuid = uuid!("12810e1f-a1db-3378-b4fb-164ed6505926");
/// `map-details@ddnet.tw`: system message `NETMSG_MAP_DETAILS`.
pub const SYS_MAP_DETAILS: Uuid = uuid!("f9117b3c-8039-3416-9fc0-aef2bcb75c03");
/// `capabilities@ddnet.tw`: system message `NETMSG_CAPABILITIES`.
pub const SYS_CAPABILITIES: Uuid = uuid!("f621a5a1-f585-3775-8e73-41beee79f2b2");
/// `clientver@ddnet.tw`: system message `NETMSG_CLIENTVER`.
pub const SYS_CLIENTVER: Uuid = uuid!("8c001304-8461-3e47-8787-f672b3835bd4");
/// `ping@ddnet.tw`: system message `NETMSG_PINGEX`.
pub const SYS_PINGEX: Uuid = uuid!("bcb43bf5-427c-36d8-b5b8-7975c8c06aa1");
/// `pong@ddnet.tw`: system message `NETMSG_PONGEX`.
pub const SYS_PONGEX: Uuid = uuid!("d8295530-14a7-3a0a-b02e-b2cee08d2033");
/// `checksum-request@ddnet.tw`: system message `NETMSG_CHECKSUM_REQUEST`.
pub const SYS_CHECKSUM_REQUEST: Uuid = uuid!("60a7cef1-2ecc-3ed4-b138-00fd0c8f5994");
/// `checksum-response@ddnet.tw`: system message `NETMSG_CHECKSUM_RESPONSE`.
pub const SYS_CHECKSUM_RESPONSE: Uuid = uuid!("88fc61ec-5a3c-3fc3-8dfa-fd3b715db9e0");
/// `checksum-error@ddnet.tw`: system message `NETMSG_CHECKSUM_ERROR`.
pub const SYS_CHECKSUM_ERROR: Uuid = uuid!("090960d1-4000-3fd5-9670-4976ae702a6a");
/// `redirect@ddnet.org`: system message `NETMSG_REDIRECT`.
pub const SYS_REDIRECT: Uuid = uuid!("4efe406a-7774-33f1-bfde-1806ff6d1528");
/// `rcon-cmd-group-start@ddnet.org`: system message `NETMSG_RCON_CMD_GROUP_START`.
pub const SYS_RCON_CMD_GROUP_START: Uuid = uuid!("85f67ffe-f1b1-3af3-98c4-26dbf77111b7");
/// `rcon-cmd-group-end@ddnet.org`: system message `NETMSG_RCON_CMD_GROUP_END`.
pub const SYS_RCON_CMD_GROUP_END: Uuid = uuid!("5e02c980-6ca1-3c99-a9af-4650ae956252");
/// `map-reload@ddnet.org`: system message `NETMSG_MAP_RELOAD`.
pub const SYS_MAP_RELOAD: Uuid = uuid!("9a9b28a3-19b0-37d9-b1f4-2cccfba05bac");
/// `reconnect@ddnet.org`: system message `NETMSG_RECONNECT`.
pub const SYS_RECONNECT: Uuid = uuid!("5f4d5db7-3947-3711-b04e-07a1ff23c970");
/// `sv-maplist-add@ddnet.org`: system message `NETMSG_MAPLIST_ADD`.
pub const SYS_MAPLIST_ADD: Uuid = uuid!("ca956101-b034-3339-92ca-aa104b20d770");
/// `sv-maplist-start@ddnet.org`: system message `NETMSG_MAPLIST_GROUP_START`.
pub const SYS_MAPLIST_GROUP_START: Uuid = uuid!("d2fafec0-5cd2-319a-a84d-480f2072dee4");
/// `sv-maplist-end@ddnet.org`: system message `NETMSG_MAPLIST_GROUP_END`.
pub const SYS_MAPLIST_GROUP_END: Uuid = uuid!("43fd0a8b-8b23-350d-b3f6-0de549246a70");

/// Every known extended message: UUID, the name DDNet's code uses, and the
/// name the UUID is derived from.
pub const NAMES: [(Uuid, &str, &str); 44] = [
    (
        SV_MY_OWN_MESSAGE,
        "Sv_MyOwnMessage",
        "my-own-message@heinrich5991.de",
    ),
    (
        CL_SHOW_DISTANCE,
        "Cl_ShowDistance",
        "show-distance@netmsg.ddnet.tw",
    ),
    (
        CL_SHOW_OTHERS,
        "Cl_ShowOthers",
        "showothers@netmsg.ddnet.tw",
    ),
    (
        CL_CAMERA_INFO,
        "Cl_CameraInfo",
        "camera-info@netmsg.ddnet.org",
    ),
    (
        SV_TEAMS_STATE,
        "Sv_TeamsState",
        "teamsstate@netmsg.ddnet.tw",
    ),
    (
        SV_DDRACE_TIME,
        "Sv_DDRaceTime",
        "ddrace-time@netmsg.ddnet.tw",
    ),
    (SV_RECORD, "Sv_Record", "record@netmsg.ddnet.tw"),
    (
        SV_KILL_MSG_TEAM,
        "Sv_KillMsgTeam",
        "killmsgteam@netmsg.ddnet.tw",
    ),
    (SV_YOUR_VOTE, "Sv_YourVote", "yourvote@netmsg.ddnet.org"),
    (
        SV_RACE_FINISH,
        "Sv_RaceFinish",
        "racefinish@netmsg.ddnet.org",
    ),
    (
        SV_COMMAND_INFO,
        "Sv_CommandInfo",
        "commandinfo@netmsg.ddnet.org",
    ),
    (
        SV_COMMAND_INFO_REMOVE,
        "Sv_CommandInfoRemove",
        "commandinfo-remove@netmsg.ddnet.org",
    ),
    (
        SV_VOTE_OPTION_GROUP_START,
        "Sv_VoteOptionGroupStart",
        "sv-vote-option-group-start@netmsg.ddnet.org",
    ),
    (
        SV_VOTE_OPTION_GROUP_END,
        "Sv_VoteOptionGroupEnd",
        "sv-vote-option-group-end@netmsg.ddnet.org",
    ),
    (
        SV_COMMAND_INFO_GROUP_START,
        "Sv_CommandInfoGroupStart",
        "sv-commandinfo-group-start@netmsg.ddnet.org",
    ),
    (
        SV_COMMAND_INFO_GROUP_END,
        "Sv_CommandInfoGroupEnd",
        "sv-commandinfo-group-end@netmsg.ddnet.org",
    ),
    (
        SV_CHANGE_INFO_COOLDOWN,
        "Sv_ChangeInfoCooldown",
        "change-info-cooldown@netmsg.ddnet.org",
    ),
    (
        SV_MAP_SOUND_GLOBAL,
        "Sv_MapSoundGlobal",
        "map-sound-global@netmsg.ddnet.org",
    ),
    (SV_PRE_INPUT, "Sv_PreInput", "preinput@netmsg.ddnet.org"),
    (SV_SAVE_CODE, "Sv_SaveCode", "save-code@netmsg.ddnet.org"),
    (
        SV_SERVER_ALERT,
        "Sv_ServerAlert",
        "server-alert@netmsg.ddnet.org",
    ),
    (
        SV_MODERATOR_ALERT,
        "Sv_ModeratorAlert",
        "moderator-alert@netmsg.ddnet.org",
    ),
    (
        CL_ENABLE_SPECTATOR_COUNT,
        "Cl_EnableSpectatorCount",
        "enable-spectator-count@netmsg.ddnet.org",
    ),
    (SV_MAP_INFO, "Sv_MapInfo", "map-info@netmsg.ddnet.org"),
    (SYS_WHATIS, "NETMSG_WHATIS", "what-is@ddnet.tw"),
    (SYS_ITIS, "NETMSG_ITIS", "it-is@ddnet.tw"),
    (SYS_IDONTKNOW, "NETMSG_IDONTKNOW", "i-dont-know@ddnet.tw"),
    (SYS_RCONTYPE, "NETMSG_RCONTYPE", "rcon-type@ddnet.tw"),
    (
        SYS_MAP_DETAILS,
        "NETMSG_MAP_DETAILS",
        "map-details@ddnet.tw",
    ),
    (
        SYS_CAPABILITIES,
        "NETMSG_CAPABILITIES",
        "capabilities@ddnet.tw",
    ),
    (SYS_CLIENTVER, "NETMSG_CLIENTVER", "clientver@ddnet.tw"),
    (SYS_PINGEX, "NETMSG_PINGEX", "ping@ddnet.tw"),
    (SYS_PONGEX, "NETMSG_PONGEX", "pong@ddnet.tw"),
    (
        SYS_CHECKSUM_REQUEST,
        "NETMSG_CHECKSUM_REQUEST",
        "checksum-request@ddnet.tw",
    ),
    (
        SYS_CHECKSUM_RESPONSE,
        "NETMSG_CHECKSUM_RESPONSE",
        "checksum-response@ddnet.tw",
    ),
    (
        SYS_CHECKSUM_ERROR,
        "NETMSG_CHECKSUM_ERROR",
        "checksum-error@ddnet.tw",
    ),
    (SYS_REDIRECT, "NETMSG_REDIRECT", "redirect@ddnet.org"),
    (
        SYS_RCON_CMD_GROUP_START,
        "NETMSG_RCON_CMD_GROUP_START",
        "rcon-cmd-group-start@ddnet.org",
    ),
    (
        SYS_RCON_CMD_GROUP_END,
        "NETMSG_RCON_CMD_GROUP_END",
        "rcon-cmd-group-end@ddnet.org",
    ),
    (SYS_MAP_RELOAD, "NETMSG_MAP_RELOAD", "map-reload@ddnet.org"),
    (SYS_RECONNECT, "NETMSG_RECONNECT", "reconnect@ddnet.org"),
    (
        SYS_MAPLIST_ADD,
        "NETMSG_MAPLIST_ADD",
        "sv-maplist-add@ddnet.org",
    ),
    (
        SYS_MAPLIST_GROUP_START,
        "NETMSG_MAPLIST_GROUP_START",
        "sv-maplist-start@ddnet.org",
    ),
    (
        SYS_MAPLIST_GROUP_END,
        "NETMSG_MAPLIST_GROUP_END",
        "sv-maplist-end@ddnet.org",
    ),
];

/// The code name of a known extended message, e.g. `"Sv_DDRaceTime"`.
#[must_use]
pub fn name(uuid: &Uuid) -> Option<&'static str> {
    NAMES.iter().find(|(u, _, _)| u == uuid).map(|&(_, n, _)| n)
}
