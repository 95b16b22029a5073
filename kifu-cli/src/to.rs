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
    /// The extension of the files the target writes (`csa` for both CSA versions).
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Target::Sgf => "sgf",
            Target::Csa | Target::Csa3 => "csa",
            Target::Jgf | Target::Jgf1 => "jgf",
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

    /// Whether one file holds every game of an input.
    pub(crate) fn collection(self) -> bool {
        !matches!(self, Target::Jgf | Target::Jgf1 | Target::Xml | Target::Json | Target::Jkf)
    }
}
