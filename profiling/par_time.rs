//! Times `stream::read_games` (every event of every game pulled) over the paths given, on 1 and
//! on 2 threads, alternating, and prints the best wall time of each.
//!
//! `cargo run --release --example par_time -- ../shared/corpus/sgf/collections`

use kifu::stream::{read_games, Options};
use kifu::{Event, EventSource};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let mut best = [f64::MAX; 2];
    let mut totals = [(0u64, 0u64); 2];
    // How many workers were busy at once, at most (shows that games are read concurrently).
    let (busy, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
    for _ in 0..5 {
        for (k, threads) in [1usize, 2].into_iter().enumerate() {
            if std::env::var("ONLY").is_ok_and(|o| o != threads.to_string()) {
                continue;
            }
            let options = Options { threads, ..Options::default() };
            let t = Instant::now();
            let mut total = (0u64, 0u64);
            read_games(
                &paths,
                &options,
                |game| {
                    most.fetch_max(busy.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                    let mut events = game.events();
                    let (mut g, mut m) = (0, 0);
                    while let Some(item) = events.next_event() {
                        match item {
                            Ok(Event::GameStart { .. }) => g += 1,
                            Ok(Event::Move(_)) => m += 1,
                            _ => {}
                        }
                    }
                    busy.fetch_sub(1, Ordering::SeqCst);
                    (g, m)
                },
                |_, r| {
                    if let Ok((g, m)) = r {
                        total = (total.0 + g, total.1 + m);
                    }
                },
            );
            best[k] = best[k].min(t.elapsed().as_secs_f64());
            totals[k] = total;
        }
    }
    // CPU time of the calling thread (splitting, copying, the sink) against the whole process.
    let ticks = |path: &str| -> u64 {
        let s = std::fs::read_to_string(path).unwrap_or_default();
        let rest = s.rsplit(')').next().unwrap_or("");
        let f: Vec<&str> = rest.split_whitespace().collect();
        f.get(11).and_then(|u| u.parse().ok()).unwrap_or(0) + f.get(12).and_then(|u| u.parse().ok()).unwrap_or(0)
    };
    println!(
        "CPU ticks: calling thread {}, whole process {}; at most {} games read at once",
        ticks("/proc/thread-self/stat"),
        ticks("/proc/self/stat"),
        most.load(Ordering::SeqCst)
    );
    if std::env::var("ONLY").is_err() {
        assert_eq!(totals[0], totals[1]);
    }
    let show = |t: f64| if t == f64::MAX { "-".to_string() } else { format!("{t:.3} s") };
    let k = if best[0] == f64::MAX { 1 } else { 0 };
    println!(
        "games {} moves {}: 1 thread {}, 2 threads {}, speed-up {:.2}x",
        totals[k].0,
        totals[k].1,
        show(best[0]),
        show(best[1]),
        best[0] / best[1]
    );
}
