//! `chardetng_guess` (the fallback of `detect_charset`) gives chardetng only the non-ASCII parts
//! of its input (with their ASCII surroundings); these tests check that its guess is the one
//! chardetng makes from the whole input: on every corpus file that is not UTF-8 and on slices
//! of them, and on records written here in each charset with long ASCII stretches between the
//! text. How often `detect_charset` itself is right is measured in `charset_accuracy.rs`.

mod common;

use kifu::text::{chardetng_guess as detect_charset, Charset};

/// chardetng's guess from the whole input, mapped as `detect_charset` maps it.
fn whole(bytes: &[u8]) -> Charset {
    if std::str::from_utf8(bytes).is_ok() {
        return Charset::Utf8;
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(bytes, true);
    let guess = det.guess(None, chardetng::Utf8Detection::Allow);
    Charset::from_encoding(guess).unwrap_or(Charset::Latin1)
}

/// Deterministic slices: a number below `n`.
fn below(rng: &mut common::rng::XorShift, n: usize) -> usize {
    (rng.next() % n as u64) as usize
}

#[test]
fn corpus_files_and_slices_get_the_whole_input_guess() {
    let Some(dir) = common::corpus() else { return };
    let mut rng = common::rng::XorShift::new(0x9e37_79b9_7f4a_7c15);
    let (mut files, mut slices) = (0, 0);
    let mut seen = std::collections::BTreeSet::new();
    for path in common::files(&dir, &[""]) {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        if std::str::from_utf8(&bytes).is_ok() || bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            continue;
        }
        let guess = detect_charset(&bytes);
        assert_eq!(guess, whole(&bytes), "{}", path.display());
        seen.insert(format!("{guess:?}"));
        files += 1;
        for _ in 0..20 {
            let a = below(&mut rng, bytes.len());
            let b = a + below(&mut rng, bytes.len() - a) + 1;
            let part = &bytes[a..b];
            assert_eq!(detect_charset(part), whole(part), "{} [{a}..{b}]", path.display());
            slices += 1;
        }
    }
    eprintln!("{files} files not in UTF-8 ({seen:?}), {slices} slices: same guess");
    assert!(files >= 20, "the corpus has files in legacy charsets; found {files}");
    assert!(seen.len() >= 3, "several charsets among them: {seen:?}");
}

/// Names and comments in each charset, set in an SGF game whose moves are long ASCII stretches.
#[test]
fn records_in_each_charset_get_the_whole_input_guess() {
    let texts: &[(&str, &[&str])] = &[
        ("Shift_JIS", &["本因坊秀策", "井上因碩", "黒番の勝ち。見事な手筋です", "第一局"]),
        ("EUC-JP", &["本因坊秀策", "井上因碩", "黒番の勝ち。見事な手筋です", "第一局"]),
        ("GBK", &["柯洁", "古力", "黑方中盘胜，这是一盘精彩的对局", "第一轮"]),
        ("Big5", &["聶衛平", "曹薰鉉", "黑中盤勝，這是一盤精彩的對局", "第一輪"]),
        ("EUC-KR", &["이세돌", "박정환", "흑 불계승. 아주 좋은 대국입니다", "제1국"]),
        ("windows-1251", &["Дмитрий Суров", "Александр Динерштейн", "Чёрные выиграли, хорошая партия", "тур"]),
        (
            "windows-1252",
            &["Jürgen Müller", "François Façade", "Schwarz gewinnt, schöne Partie à la française", "Runde"],
        ),
    ];
    for (label, parts) in texts {
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let moves: String = (0..150)
            .map(|i| {
                format!(
                    ";{}[{}{}]",
                    ["B", "W"][i % 2],
                    (b'a' + (i % 19) as u8) as char,
                    (b'a' + (i * 7 % 19) as u8) as char
                )
            })
            .collect();
        let sgf = format!(
            "(;GM[1]FF[4]SZ[19]PB[{}]PW[{}]EV[{}]{moves}C[{}]{moves};B[aa]C[{} {}])",
            parts[0], parts[1], parts[3], parts[2], parts[2], parts[0]
        );
        let (bytes, _, unmappable) = enc.encode(&sgf);
        assert!(!unmappable, "{label}");
        assert_eq!(detect_charset(&bytes), whole(&bytes), "{label}");
        // Every 7th prefix: the input may end anywhere, inside a character too.
        for end in (1..bytes.len()).step_by(7) {
            assert_eq!(detect_charset(&bytes[..end]), whole(&bytes[..end]), "{label} ..{end}");
        }
    }
}

/// Inputs that give a part's start the state of windows-1252's ordinal patterns ("3º", "Nº",
/// "Xª", "©"), which chardetng carries through runs of letters and digits: found by a review,
/// where the first version of the parts (a fixed 16 bytes of context) guessed otherwise.
#[test]
fn ordinal_patterns_far_from_other_text_get_the_whole_input_guess() {
    let found: [&[u8]; 2] = [
        b"(;C[\xB5 aaaaaaaaaaaaaaaa 11111111111111111\xBA ])",
        b"(;GM[1]PB[s\xB5]C[\xE9 111111111111111a1111111111111111111111\xBA ];B[pd])",
    ];
    for bytes in found {
        assert_eq!(detect_charset(bytes), whole(bytes), "{}", String::from_utf8_lossy(bytes));
    }
    // Random text built to move that state: words of letters, digits or Roman numerals of
    // every length up to 40, `N` and `N.`, each maybe followed by an ordinal or copyright sign,
    // a non-ASCII letter now and then, separated by spaces, points and SGF punctuation.
    let mut rng = common::rng::XorShift::new(0x2545_f491_4f6c_dd1d);
    let mut differ = 0;
    for _ in 0..20_000 {
        let mut bytes = Vec::new();
        for _ in 0..below(&mut rng, 12) + 1 {
            let len = below(&mut rng, 40) + 1;
            let alphabet: &[u8] = match below(&mut rng, 5) {
                0 => b"abcdefghijklmnopqrstuvwxyz",
                1 => b"0123456789",
                2 => b"IVXivx",
                3 => b"Nn",
                _ => b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            };
            for _ in 0..len {
                bytes.push(alphabet[below(&mut rng, alphabet.len())]);
                if below(&mut rng, 30) == 0 {
                    bytes.push([0xE9, 0xB5, 0xFC, 0xC0, 0xD0][below(&mut rng, 5)]);
                }
            }
            if below(&mut rng, 4) == 0 {
                bytes.push(b'.');
            }
            if below(&mut rng, 3) == 0 {
                bytes.push([0xBA, 0xAA, 0xA9][below(&mut rng, 3)]);
            }
            bytes.extend_from_slice([&b" "[..], b".", b", ", b"];B[pd];W[dp]C[", b"\n"][below(&mut rng, 5)]);
        }
        if detect_charset(&bytes) != whole(&bytes) {
            differ += 1;
            eprintln!("differs: {:?}", String::from_utf8_lossy(&bytes));
        }
    }
    assert_eq!(differ, 0, "inputs whose guess differs from the whole input's");
}

#[test]
fn the_guess_names_the_charset_of_clear_text() {
    let jp = encoding_rs::SHIFT_JIS.encode("(;PB[本因坊秀策]PW[井上因碩]C[黒番の勝ち。見事な手筋です];B[pd];W[dp])").0;
    assert_eq!(kifu::text::detect_charset(&jp), Charset::ShiftJis);
    let kr = encoding_rs::EUC_KR
        .encode("(;PB[이세돌]PW[박정환]C[흑 불계승. 아주 좋은 대국입니다. 백이 돌을 던졌습니다];B[pd])")
        .0;
    assert_eq!(kifu::text::detect_charset(&kr), Charset::EucKr);
    assert_eq!(kifu::text::detect_charset(b"(;PB[plain ascii];B[pd])"), Charset::Utf8);
}
