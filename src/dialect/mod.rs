//! Server SGF dialects (Fox, OGS, IGS), normalised where values are interpreted — never in the
//! readers' event stream, which gives what the file says. [`Normalize`] is an adapter over any
//! event iterator (a reader, [`AnyReader`](crate::AnyReader), the reader a
//! [`Visit`](crate::Visit) gets): it recognises a game's [`Dialect`] from its root node and
//! yields the events with the rules below applied, each change followed by a warning of its own
//! kind (offset: the game's start). The single-value rules are also plain functions
//! ([`fox_komi`], [`cjk_rank`], [`igs_rank`], [`fox_date`], [`handicap_points`], [`igs_split`])
//! for code that reads values without events (the index). It depends on the core only.
//!
//! # Recognising the dialect (root node only)
//! - **Fox**: `AP[foxwq]` (`AP[YuanYu][foxwq]` in `real-ai/DeepZenGo/Fox_Go_Server/2017.03.23_DeepZenGo_vs_56904186_641ad5de.sgf`),
//!   `AP[YuanYu]` (the writer of the Fox files of `real-ai/`: 7,068 files, 4,034 of them with a
//!   Fox komi, the one above with both names), a komi from Fox's table below (`KM[750]`), or
//!   Fox's old header `AP[GNU Go:3.8]` with an empty `GN[]` (KataGo's test).
//! - **OGS**: `PC[OGS: https://online-go.com/game/1234]` (`edge/katrain-ogs.sgf`), or
//!   `online-go.com` in `PC`, `CP`, `SO`.
//! - **IGS**: `PC[IGS:  igs.joyjoy.net 6969]`, `US[Brought to you by IGS PANDANET]`,
//!   `EV[Internet Go Server game: …]` (`edge/katrain-panda1.sgf`).
//!
//! # Rules (warning kind; real example)
//! - `fox_komi_in_stones` (any dialect: the values are Fox's alone): Fox writes komi ×100, in
//!   stones under Chinese rules and in points under Japanese, as KataGo's reader maps them:
//!   `KM[375]` → 7.5, `KM[325]` → 6.5, `KM[275]` → 5.5, `KM[350]` → 7; `KM[750]` → 7.5, `KM[650]`
//!   → 6.5, `KM[550]` → 5.5, `KM[700]` → 7. `edge/katago-foxlike.sgf` (`KM[325]`, `RU[Chinese]`);
//!   `real-ai/Jin_Mao_Ce_Shi/*` (`KM[375]RU[Chinese]`, `KM[750]RU[Japanese]`). Other values
//!   (`KM[0]`, `KM[6.5]`) are left alone.
//! - `fox_handicap_placed` (Fox): a handicap game (`HA[2]`…`HA[9]`) whose root places no black
//!   stone and whose first move is White's: the standard stones ([`handicap_points`], KataGo's
//!   layout; for 6 and 7 stones before 2018 the side stones on the top and bottom edges, as
//!   KataGo does for old Fox games) added to the root. No corpus file needs it (every Fox
//!   handicap game there has its `AB`, on "move 0", see the next rule): the rule has
//!   hand-written cases.
//! - `fox_setup_after_root` (Fox): a handicap game whose stones come in the node after the
//!   root, Fox's "move 0" (`(;…HA[2]…;AB[pd][dp];W[dc];B[ce];)` in `edge/katago-foxlike.sgf`,
//!   which KataGo's reader refuses: "placements after the root"; `;AB[pd][dp][dd][pp]` in
//!   `real-ai/fuheyuqi/2017.07.07_vs_fuheyuqi_63489149_a7cfa13d.sgf`, 14 games of `real-ai/`):
//!   the stones moved into the root, and that node dropped when it held nothing else.
//! - `fox_date_time` (Fox): `DT[2016.10.25 12:30]` (455 files of `real-ai/`, e.g. `Li_Long/`) and
//!   `DT[2017-03-23 10:30:00]` read as `2016-10-25` and `2017-03-23` (dotted dates need the
//!   store of [`Normalize::with_store`]).
//! - `cjk_rank` (any dialect): `BR[9段]` → `9d`, `WR[P9段]` → `9p`
//!   (`real-ai/DeepZenGo/Fox_Go_Server/…`), `BR[15级]` → `15k` (`edge/katrain-fox_sgf_works.sgf`).
//! - `igs_rank_mark` (IGS): `WR[11k+]` → `11k`, `BR[12k ]` → `12k` (`edge/katrain-panda1.sgf`).
//! - `igs_split_property` (IGS): a value IGS splits over lines, starting on the line after the
//!   bracket (`CoPyright[` newline, indented lines, `]` in `edge/katrain-panda1.sgf`): read
//!   without its leading line break and indentation and its trailing line break (the inner line
//!   breaks stay).
//! - `ogs_nested_main_line` (OGS): OGS writes each move as a variation inside the previous one,
//!   `;B[qd](;W[dp](;B[pp]…)))` (`edge/katrain-ogs.sgf`: 112 nested variations, 113 moves): every
//!   variation that is its parent's only child loses its parentheses, so the main line is flat.
//!   The game is held whole (one pass, an explicit stack, no recursion); past [`HOLD_LIMIT`]
//!   events it is left nested with `ogs_nested_too_long`.
//!
//! Where it is used: `kifu convert --normalize` (the SGF written has `KM[6.5]`, the handicap
//! stones, a flat main line), `kifu show` (normalised komi, ranks, date), and the index's komi
//! (`kifu find --komi 6.5` finds a Fox `KM[325]` game).

mod normalize;
mod values;

pub use normalize::{Dialect, Normalize, HOLD_LIMIT};
pub use values::{cjk_rank, fox_date, fox_komi, handicap_points, igs_rank, igs_split};

use crate::error::WarningKind;

/// The warning kinds of the dialect rules, one per rule (see the module docs).
pub const RULES: [WarningKind; 9] = [
    WarningKind::FoxKomiInStones,
    WarningKind::FoxHandicapPlaced,
    WarningKind::FoxSetupAfterRoot,
    WarningKind::FoxDateTime,
    WarningKind::CjkRank,
    WarningKind::IgsRankMark,
    WarningKind::IgsSplitProperty,
    WarningKind::OgsNestedMainLine,
    WarningKind::OgsNestedTooLong,
];
