fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(path).unwrap();
    for ev in kifu::jago::Reader::new(&bytes) {
        match ev {
            Ok(e) => println!("{e:?}"),
            Err(e) => println!("ERR {e}"),
        }
    }
}
