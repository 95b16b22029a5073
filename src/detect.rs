//! Content-based format detection. Each format offers a `sniff` function that looks at the first
//! bytes of an input and says how sure it is; the table here is where formats register.

/// A game-record format kifu reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// SGF `FF[1]`–`FF[4]`.
    Sgf,
    /// CSA shogi V2.2 / V3.0.
    Csa,
    /// JGF v2 (Seki).
    Jgf2,
    /// JGF v1 (ngGo).
    Jgf1,
    /// Go game JSON (Gocaml's position snapshot).
    GoJson,
    /// Jago XML (`<Go><GoGame>`), as Jago and GoGui write it.
    Jago,
}

impl Format {
    /// A stable lower-case name (`sgf`, `jgf2`, `jgf1`, `gojson`, `jago`, `csa`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Sgf => "sgf",
            Format::Csa => "csa",
            Format::Jgf2 => "jgf2",
            Format::Jgf1 => "jgf1",
            Format::GoJson => "gojson",
            Format::Jago => "jago",
        }
    }

    /// Every supported format.
    pub const ALL: &'static [Format] =
        &[Format::Sgf, Format::Jgf2, Format::Jgf1, Format::GoJson, Format::Jago, Format::Csa];
}

/// How sure a sniffer is that the input is its format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    /// Not this format.
    No,
    /// Could be (e.g. the right characters, but not at the start).
    Maybe,
    /// Certainly this format.
    Yes,
}

/// How many leading bytes detection looks at.
pub const SNIFF_LEN: usize = 4096;

/// A format's sniffer: how sure it is that the head of an input is its format.
pub type Sniffer = fn(&[u8]) -> Confidence;

/// The registered sniffers, in order of preference when confidences tie.
const SNIFFERS: &[(Format, Sniffer)] = &[
    (Format::Sgf, crate::sgf::sniff),
    (Format::Jgf2, crate::jgf::sniff_v2),
    (Format::Jgf1, crate::jgf::sniff_v1),
    (Format::GoJson, crate::gocaml::sniff),
    (Format::Jago, crate::jago::sniff),
    (Format::Csa, crate::csa::sniff),
];

/// The format of `bytes`, judged from their first [`SNIFF_LEN`] bytes, or `None` when no format
/// recognises them (a README, an image…).
///
/// ```
/// assert_eq!(kifu::detect(b"(;GM[1]FF[4];B[pd])"), Some(kifu::Format::Sgf));
/// assert_eq!(kifu::detect(b"V2.2\nPI\n+\n+7776FU\n"), Some(kifu::Format::Csa));
/// assert_eq!(kifu::detect(b"<?xml version='1.0'?><Go><GoGame/></Go>"), Some(kifu::Format::Jago));
/// assert_eq!(kifu::detect(b"# Just a README\n"), None);
/// ```
pub fn detect(bytes: &[u8]) -> Option<Format> {
    let head = &bytes[..bytes.len().min(SNIFF_LEN)];
    let mut best: Option<(Format, Confidence)> = None;
    for &(format, sniff) in SNIFFERS {
        let c = sniff(head);
        if c == Confidence::Yes {
            // Nothing later can beat it: a tie goes to the earlier sniffer.
            return Some(format);
        }
        if c > Confidence::No && best.is_none_or(|(_, b)| c > b) {
            best = Some((format, c));
        }
    }
    best.map(|(f, _)| f)
}
