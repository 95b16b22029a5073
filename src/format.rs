//! The format vocabulary: the names of the formats kifu reads ([`Format`]), the game each one
//! records ([`GameKind`]), and the words a format's sniffer answers in ([`Confidence`],
//! [`Sniffer`], [`SNIFF_LEN`]).
//!
//! A leaf: this module imports nothing from the crate, so a format's folder can name its own
//! format and answer a sniff without depending on detection or on the other formats. How each
//! format is detected and read is listed once, in the crate's registry (`src/registry.rs`); a
//! new format is one line in the table below, one row there, and its own folder.

/// Defines [`Format`] and its tables from one line per format: the variant (with its doc), its
/// stable name and its [`GameKind`]. The order of the lines is the order of [`Format::ALL`].
macro_rules! formats {
    ($($(#[$doc:meta])* $format:ident = $name:literal, $kind:ident;)*) => {
        /// A game-record format kifu reads.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Format {
            $($(#[$doc])* $format,)*
        }

        impl Format {
            /// Every supported format.
            pub const ALL: &'static [Format] = &[$(Format::$format),*];

            /// A stable lower-case name (`sgf`, `jgf2`, `jgf1`, `gojson`, `jago`, `csa`, `kif`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Format::$format => $name,)*
                }
            }

            /// The game this format records: a CSA record is replayed on a shogi position, the
            /// others on a Go board.
            pub fn kind(self) -> GameKind {
                match self {
                    $(Format::$format => GameKind::$kind,)*
                }
            }
        }
    };
}

formats! {
    /// SGF `FF[1]`–`FF[4]`.
    Sgf = "sgf", Go;
    /// JGF v2 (Seki).
    Jgf2 = "jgf2", Go;
    /// JGF v1 (ngGo).
    Jgf1 = "jgf1", Go;
    /// Go game JSON (Gocaml's position snapshot).
    GoJson = "gojson", Go;
    /// Jago XML (`<Go><GoGame>`), as Jago and GoGui write it.
    Jago = "jago", Go;
    /// Tygem GIB.
    Gib = "gib", Go;
    /// WBaduk / Cyberoro NGF.
    Ngf = "ngf", Go;
    /// Pandanet UGF/UGI.
    Ugf = "ugf", Go;
    /// CSA shogi V2.2 / V3.0.
    Csa = "csa", Shogi;
    /// KIF shogi (Kakinoki's format: `.kif` in CP932, `.kifu` in UTF-8).
    Kif = "kif", Shogi;
    /// KI2 shogi (Kakinoki's short notation: `.ki2` in CP932, `.ki2u` in UTF-8).
    Ki2 = "ki2", Shogi;
    /// USI `position` lines (`.usi`/`.sfen`: one game per line).
    Usi = "usi", Shogi;
    /// JKF shogi (json-kifu-format, Kifu for JS's JSON; `.jkf`).
    Jkf = "jkf", Shogi;
}

impl Format {
    /// The format whose [`as_str`](Format::as_str) name is `name`, or `None`.
    ///
    /// ```
    /// assert_eq!(kifu::Format::from_name("csa"), Some(kifu::Format::Csa));
    /// assert_eq!(kifu::Format::from_name("kif"), Some(kifu::Format::Kif));
    /// assert_eq!(kifu::Format::from_name("ki2"), Some(kifu::Format::Ki2));
    /// assert_eq!(kifu::Format::from_name("jkf"), Some(kifu::Format::Jkf));
    /// assert_eq!(kifu::Format::from_name("pgn"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.as_str() == name)
    }
}

/// The game a format records, which decides the board its moves are replayed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GameKind {
    /// Go (and its variants on other board sizes).
    Go,
    /// Shogi.
    Shogi,
}

impl GameKind {
    /// A stable lower-case name: `go` or `shogi`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Go => "go",
            GameKind::Shogi => "shogi",
        }
    }
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
