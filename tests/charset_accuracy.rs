//! How often [`detect_charset`] names the right charset, on inputs whose charset is known:
//! corpus files whose charset is declared (SGF `CA[]`, stripped before detection) or stated by
//! the corpus manifest (a tool wrote them in it, a UTF-8 twin decodes the same), and short games
//! written here (a player's name each and a one-line comment) encoded in each charset that game
//! records use. Prints a table per charset (`cargo test --release --test charset_accuracy --
//! --nocapture`) and asserts a floor per source.

mod common;

use kifu::text::{chardetng_guess, detect_charset, Charset};
use std::collections::BTreeMap;

/// One input of known charset and what detection said.
struct Row {
    source: &'static str,
    name: String,
    want: Charset,
    got: Charset,
    /// Whether chardetng alone (detection before issue 20) was right.
    before: bool,
    /// Whether the guess decodes the bytes to the same text as the right charset (ASCII text
    /// is the same in UTF-8 and ISO-8859-1: either guess is right).
    right: bool,
}

impl Row {
    fn new(source: &'static str, name: String, bytes: &[u8], want: Charset) -> Row {
        let got = detect_charset(bytes);
        let same = |c: Charset| c == want || c.decode(bytes).text == want.decode(bytes).text;
        let before = same(chardetng_guess(bytes));
        Row { source, name, want, got, before, right: same(got) }
    }
}

/// `bytes` with every `CA[...]` property removed (the label is returned, the first one).
fn strip_ca(bytes: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
    let mut out = Vec::with_capacity(bytes.len());
    let mut label = None;
    let mut i = 0;
    while i < bytes.len() {
        let prev_ok = i == 0 || !bytes[i - 1].is_ascii_alphabetic();
        if prev_ok && bytes[i..].starts_with(b"CA[") {
            if let Some(close) = bytes[i + 3..].iter().position(|&b| b == b']') {
                if label.is_none() {
                    label = Some(bytes[i + 3..i + 3 + close].to_vec());
                }
                i += 3 + close + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    (out, label)
}

/// Corpus files with a known charset.
fn corpus_rows(dir: &std::path::Path) -> Vec<Row> {
    let mut rows = Vec::new();
    // SGF files that declare their charset.
    for path in common::files(&dir.join("sgf"), &[".sgf"]) {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let (stripped, Some(label)) = strip_ca(&bytes) else { continue };
        let name = path.strip_prefix(dir).unwrap().display().to_string();
        // The label says Shift_JIS, but the bytes were already turned into U+FFFD (UTF-8) by
        // the program that wrote the file: the label is wrong (see the corpus manifest).
        if name.ends_with("sabaki-japanese_bad.sgf") {
            continue;
        }
        let want = Charset::from_label(&label).unwrap_or_else(|| panic!("{name}: label {label:?}"));
        rows.push(Row::new("corpus CA[]", name, &stripped, want));
    }
    // Files written in a charset the manifest names, none declared in the file.
    let stated: &[(&str, &str, Charset)] = &[
        ("converted/csa-cshogi/sjis", ".csa", Charset::ShiftJis),
        ("kif/tsshogi", ".kif", Charset::ShiftJis),
        ("ki2/tsshogi", ".ki2", Charset::ShiftJis),
    ];
    for &(sub, ext, want) in stated {
        for path in common::files(&dir.join(sub), &[ext]) {
            let bytes = std::fs::read(&path).unwrap();
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            rows.push(Row::new("corpus stated", name, &bytes, want));
        }
    }
    let named: &[(&str, Charset)] = &[
        ("gib/sabaki-gb2312.gib", Charset::Gb18030),
        ("gib/sabaki-euc-kr.gib", Charset::EucKr),
        ("sgf/edge/sabaki-derived-no-ca-shift_jis.sgf", Charset::ShiftJis),
        ("sgf/edge/sabaki-derived-no-ca-euc-kr.sgf", Charset::EucKr),
        ("sgf/edge/sabaki-derived-no-ca-gb18030.sgf", Charset::Gb18030),
        ("sgf/edge/sabaki-derived-no-ca-big5.sgf", Charset::Big5),
        ("sgf/edge/sabaki-derived-no-ca-windows-1251.sgf", Charset::Windows1251),
        ("sgf/edge/sabaki-encoding-nihon-kiin.sgf", Charset::ShiftJis),
        // Only GBK decodes it without errors, to the text Sabaki's test expects (【第三型】).
        ("sgf/edge/sabaki-no-ca.sgf", Charset::Gb18030),
        ("sgf/edge/sgfmill-tokenise-latin1-byte-and-empty-value.sgf", Charset::Latin1),
        ("sgf/edge/sgfmill-serialise-roundtrip-latin1-byte-wrapped.sgf", Charset::Latin1),
        ("csa/kifujs-2005_YAMADA_GPS.csa", Charset::EucJp),
    ];
    for &(file, want) in named {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        rows.push(Row::new("corpus stated", file.to_owned(), &bytes, want));
    }
    // Kifu for JS's CSA and KIF files: Shift_JIS (the manifest), but for the EUC-JP one above.
    for sub in ["csa", "kif", "ki2"] {
        for path in common::files(&dir.join(sub), &[".csa", ".kif", ".ki2"]) {
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            let bytes = std::fs::read(&path).unwrap();
            if name.contains("tsshogi/") || name.contains("YAMADA") || std::str::from_utf8(&bytes).is_ok() {
                continue;
            }
            rows.push(Row::new("corpus stated", name, &bytes, Charset::ShiftJis));
        }
    }
    rows
}

/// Player names and a one-line comment, in the script of each charset.
const CHINESE: &[[&str; 3]] = &[
    ["柯洁", "古力", "黑棋中盘胜"],
    ["聂卫平", "马晓春", "白中盘胜"],
    ["常昊", "李昌镐", "黑胜3又3/4子"],
    ["芈昱廷", "时越", "这步棋是本局的败着"],
    ["陈耀烨", "唐韦星", "黑方大优"],
    ["范廷钰", "朴廷桓", "白棋打劫获胜"],
    ["古力", "常昊", "第一局"],
    ["江维杰", "檀啸", "中盘胜"],
    ["党毅飞", "周睿羊", "黑棋形势不错，白棋需要在右下角找机会"],
    ["申真谞", "柯洁", "春兰杯决赛第二局"],
    ["杨鼎新", "辜梓豪", "白胜1又1/4子"],
    ["王汝南", "刘小光", "精彩的对局"],
];
const JAPANESE: &[[&str; 3]] = &[
    ["本因坊秀策", "井上因碩", "黒番の勝ち"],
    ["趙治勲", "小林光一", "白中押し勝ち"],
    ["井山裕太", "一力遼", "コミ6目半、黒番2目半勝ち"],
    ["張栩", "山下敬吾", "名人戦第一局"],
    ["芝野虎丸", "許家元", "この手が敗着"],
    ["藤沢秀行", "呉清源", "白番中押し勝ち"],
    ["大竹英雄", "加藤正夫", "黒1目半勝"],
    ["依田紀基", "王立誠", "本局は大熱戦"],
    ["羽根直樹", "高尾紳路", "黒中押し勝ち"],
    ["坂田栄男", "林海峰", "棋聖戦第七局"],
];
const KOREAN: &[[&str; 3]] = &[
    ["이세돌", "박정환", "흑 불계승"],
    ["신진서", "최정", "백 반집승"],
    ["조훈현", "이창호", "좋은 대국이었습니다"],
    ["박영훈", "김지석", "흑이 유리하다"],
    ["변상일", "신민준", "제1국"],
    ["조치훈", "서봉수", "백 불계승"],
    ["최철한", "원성진", "대마가 잡혔다"],
    ["유창혁", "목진석", "흑 3집반 승"],
    ["김은지", "오유진", "결승 3번기"],
];
const WESTERN: &[[&str; 3]] = &[
    ["Jürgen Müller", "François Mignon", "Très bonne partie"],
    ["Søren Ørsted", "Åsa Ström", "Svart vinner på tid"],
    ["José García", "Iñaki Ruiz", "Blancas ganan por abandono"],
    ["Frédéric Donzet", "Thomas Debarre", "Noir gagne de 3,5 points"],
    ["Rémi Coulom", "Hélène Dupont", "Une erreur à éviter"],
    ["Björn Österberg", "Jan Schröder", "Weiß gewinnt durch Aufgabe"],
    ["André Moussa", "Benjamin Dréan-Guénaïzia", "Belle partie"],
    ["Ángel Domínguez", "Lluís Oh", "Negras ganan"],
    ["Pål Sannes", "Gérald Garlejo", "Tsumego intéressant"],
];

/// Written after the detector was tuned on the texts above, to measure it on texts it was not
/// tuned on (and Big5 and windows-1251, which the tuning did not look at).
const CHINESE_HELD_OUT: &[[&str; 3]] = &[
    ["胡耀宇", "孔杰", "白棋本局发挥出色"],
    ["刘星", "邬光亚", "黑贴7目半"],
    ["谢赫", "王磊", "左上角的死活很有意思"],
    ["周鹤洋", "罗洗河", "黑棋弃子取势"],
    ["彭立尧", "陶欣然", "围棋甲级联赛"],
    ["古灵益", "廖行文", "白投子认输"],
];
const JAPANESE_HELD_OUT: &[[&str; 3]] = &[
    ["結城聡", "河野臨", "黒番中押し勝ち、見事な打ち回し"],
    ["村川大介", "余正麒", "白3目半勝ち"],
    ["溝上知親", "山城宏", "天元戦挑戦手合"],
    ["謝依旻", "藤沢里菜", "女流本因坊戦"],
    ["石田芳夫", "武宮正樹", "宇宙流の大模様"],
];
const KOREAN_HELD_OUT: &[[&str; 3]] = &[
    ["박지은", "루이나이웨이", "흑 6집반 승"],
    ["안성준", "강동윤", "바둑리그 결승"],
    ["홍성지", "윤준상", "백이 대마를 잡았다"],
    ["이영구", "김명훈", "초반 포석이 좋았다"],
    ["나현", "송지훈", "시간승"],
];
const TRADITIONAL_HELD_OUT: &[[&str; 3]] = &[
    ["聶衛平", "曹薰鉉", "黑中盤勝"],
    ["周俊勳", "林至涵", "白棋三目半勝"],
    ["王銘琬", "張栩", "本局精彩"],
    ["林海峰", "陳祖德", "黑棋取得勝利"],
];
const CYRILLIC_HELD_OUT: &[[&str; 3]] = &[
    ["Александр Динерштейн", "Илья Шикшин", "Чёрные выиграли"],
    ["Дмитрий Суров", "Наталья Ковалева", "Белые сдались"],
];
const WESTERN_HELD_OUT: &[[&str; 3]] = &[
    ["Lukas Krämer", "Cornel Burzo", "Weiß gewinnt um 2,5 Punkte"],
    ["Benjamin Teuber", "Gaëlle Poulain", "Noir abandonne"],
    ["Jesús Martín", "Núria Pérez", "Una partida difícil"],
];

fn handmade_rows() -> Vec<Row> {
    let sets: &[(&str, Charset, &[[&str; 3]])] = &[
        ("GB2312", Charset::Gb18030, CHINESE),
        ("GBK", Charset::Gb18030, CHINESE),
        ("gb18030", Charset::Gb18030, CHINESE),
        ("Shift_JIS", Charset::ShiftJis, JAPANESE),
        ("EUC-JP", Charset::EucJp, JAPANESE),
        ("EUC-KR", Charset::EucKr, KOREAN),
        ("ISO-8859-1", Charset::Latin1, WESTERN),
        ("windows-1252", Charset::Latin1, WESTERN),
        ("macintosh", Charset::from_label(b"macintosh").unwrap_or(Charset::Latin1), WESTERN),
    ];
    let held_out: &[(&str, Charset, &[[&str; 3]])] = &[
        ("GBK", Charset::Gb18030, CHINESE_HELD_OUT),
        ("Shift_JIS", Charset::ShiftJis, JAPANESE_HELD_OUT),
        ("EUC-JP", Charset::EucJp, JAPANESE_HELD_OUT),
        ("EUC-KR", Charset::EucKr, KOREAN_HELD_OUT),
        ("Big5", Charset::Big5, TRADITIONAL_HELD_OUT),
        ("windows-1251", Charset::Windows1251, CYRILLIC_HELD_OUT),
        ("windows-1252", Charset::Latin1, WESTERN_HELD_OUT),
        ("macintosh", Charset::from_label(b"macintosh").unwrap_or(Charset::Latin1), WESTERN_HELD_OUT),
    ];
    let mut rows = Vec::new();
    let all = sets.iter().map(|s| ("hand-made", s)).chain(held_out.iter().map(|s| ("hand-made held out", s)));
    for (source, &(label, want, texts)) in all {
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        for [pb, pw, c] in texts {
            // The game alone, then only the names, then only the comment.
            let games = [
                format!("(;GM[1]FF[4]SZ[19]PB[{pb}]PW[{pw}]C[{c}];B[pd];W[dp])"),
                format!("(;GM[1]PB[{pb}]PW[{pw}];B[pd])"),
                format!("(;GM[1]C[{c}];B[pd])"),
            ];
            for game in games {
                let (bytes, _, unmappable) = enc.encode(&game);
                assert!(!unmappable, "{label}: {game}");
                let name = format!("{label}: {game}");
                rows.push(Row::new(source, name, &bytes, want));
            }
        }
    }
    rows
}

/// Right before, right now, all, and the wrong guesses now with their counts.
type Tally = (usize, usize, usize, BTreeMap<String, usize>);

/// Prints the table; returns (right before, right now, all) per source.
fn report(rows: &[Row]) -> BTreeMap<&'static str, (usize, usize, usize)> {
    let mut by: BTreeMap<(&str, String), Tally> = BTreeMap::new();
    let mut per_source = BTreeMap::new();
    for r in rows {
        let e = by.entry((r.source, r.want.name().to_owned())).or_default();
        e.2 += 1;
        e.0 += usize::from(r.before);
        let s: &mut (usize, usize, usize) = per_source.entry(r.source).or_default();
        s.2 += 1;
        s.0 += usize::from(r.before);
        if r.right {
            e.1 += 1;
            s.1 += 1;
        } else {
            *e.3.entry(r.got.name().to_owned()).or_default() += 1;
        }
    }
    eprintln!("| source | charset | right before (chardetng) | right now | of | wrong guesses now |");
    eprintln!("|---|---|---:|---:|---:|---|");
    for ((source, cs), (before, ok, n, wrong)) in &by {
        let w: Vec<String> = wrong.iter().map(|(k, v)| format!("{k} {v}")).collect();
        eprintln!("| {source} | {cs} | {before} | {ok} | {n} | {} |", w.join(", "));
    }
    let pct = |a: usize, n: usize| 100.0 * a as f64 / n as f64;
    for (s, (before, ok, n)) in &per_source {
        eprintln!("{s}: {ok}/{n} right ({:.1}%), before {before}/{n} ({:.1}%)", pct(*ok, *n), pct(*before, *n));
    }
    if std::env::var_os("KIFU_CHARSET_MISSES").is_some() {
        for r in rows.iter().filter(|r| !r.right) {
            eprintln!("miss: {} want {} got {}", r.name, r.want.name(), r.got.name());
        }
    }
    per_source
}

#[test]
fn accuracy_on_known_charsets() {
    let mut rows = handmade_rows();
    if let Some(dir) = common::corpus() {
        rows.extend(corpus_rows(&dir));
    }
    let per_source = report(&rows);
    // Every corpus file of known charset is read right; short texts nearly always.
    for (source, floor) in
        [("corpus CA[]", 1.0), ("corpus stated", 1.0), ("hand-made", 0.97), ("hand-made held out", 0.95)]
    {
        let Some(&(_, ok, n)) = per_source.get(source) else { continue };
        assert!(ok as f64 >= floor * n as f64, "{source}: {ok}/{n} right, below {floor}");
    }
}
