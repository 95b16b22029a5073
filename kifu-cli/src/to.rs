//! The formats `kifu convert` and `kifu find --export` write ([`Target`]), their extensions
//! and whether one file holds every game of an input. Its own module so that the writers'
//! callers and `losses` (which names each target's losses) share it without depending on
//! one another.

/// The formats `kifu convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// SGF FF[4].
    Sgf,
    /// CSA V2.2.
    Csa,
    /// CSA V3.0.
    Csa3,
    /// JGF v2 (Seki).
    Jgf,
    /// JGF v1 (ngGo).
    Jgf1,
    /// Jago XML.
    Xml,
    /// The Go game JSON snapshot.
    Json,
    /// JKF (json-kifu-format), shogi.
    Jkf,
    /// KIF in CP932 (Shift_JIS), shogi.
    Kif,
    /// KIF in UTF-8 (`.kifu`), shogi.
    Kifu,
    /// USI `position` lines, one game per line (main line only), shogi.
    Usi,
    /// KI2 in CP932 (Shift_JIS), shogi.
    Ki2,
    /// KI2 in UTF-8 (`.ki2u`), shogi.
    Ki2u,
}

impl Target {
    /// The target's name as `--to` and `--export` take it (`csa3`, `jgf1`…).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Target::Sgf => "sgf",
            Target::Csa => "csa",
            Target::Csa3 => "csa3",
            Target::Jgf => "jgf",
            Target::Jgf1 => "jgf1",
            Target::Xml => "xml",
            Target::Json => "json",
            Target::Jkf => "jkf",
            Target::Kif => "kif",
            Target::Kifu => "kifu",
            Target::Usi => "usi",
            Target::Ki2 => "ki2",
            Target::Ki2u => "ki2u",
        }
    }

    /// The extension of the files the target writes: its name, but `csa` for both CSA
    /// versions and `jgf` for both JGF versions.
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Target::Csa3 => "csa",
            Target::Jgf1 => "jgf",
            t => t.name(),
        }
    }

    /// Whether one file holds every game of an input (else one file a game).
    pub(crate) fn collection(self) -> bool {
        !matches!(self, Target::Jgf | Target::Jgf1 | Target::Xml | Target::Json | Target::Jkf)
    }

    /// Whether the target writes Go games (else shogi).
    pub(crate) fn go(self) -> bool {
        matches!(self, Target::Sgf | Target::Jgf | Target::Jgf1 | Target::Xml | Target::Json)
    }
}
